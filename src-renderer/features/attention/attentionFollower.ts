import { contract, type ConsentPrompt, type GoalCheckpoint } from '../../../src-preload/contract';
import type { Disposable } from '../../../src-preload/rpc/disposable';
import type { OmniClient } from '../../bridge/connectionStore';
import type { WaitingItem, WaitingKind } from '../../ui/attention/attentionStore';
import { followLiveList } from '../../ui/liveList';

export type WaitingSink = (sessionId: string, kind: WaitingKind, items: WaitingItem[]) => void;

export function consentItem(prompt: ConsentPrompt): WaitingItem {
  return { kind: 'consent', id: prompt.id, sessionId: prompt.sessionId, summary: `${prompt.agentId} asks for ${prompt.capability}`, since: prompt.askedAt };
}

export function checkpointItem(checkpoint: GoalCheckpoint): WaitingItem {
  const who = checkpoint.agentName ?? 'The goal run';
  return { kind: 'checkpoint', id: checkpoint.resumeId, sessionId: checkpoint.sessionId, summary: `${who} asks: ${checkpoint.message}`, since: checkpoint.createdAt };
}

/**
 * Follows what waits for the user in every open session over one connection: the consent prompts (watching them is
 * what tells the host a page shows the session, so its prompts' deadlines run) and the goal's checkpoint questions.
 * Sessions join and leave with follow(); a new connection gets a new follower.
 */
export class AttentionFollower implements Disposable {
  private readonly followed = new Map<string, Disposable>();

  constructor(
    private readonly client: OmniClient,
    private readonly sink: WaitingSink,
  ) {}

  /** Follows exactly these sessions: new ones start, the others stop. */
  follow(sessionIds: readonly string[]): void {
    const wanted = new Set(sessionIds);
    for (const [sessionId, following] of this.followed) {
      if (wanted.has(sessionId)) continue;
      following.dispose();
      this.followed.delete(sessionId);
    }
    for (const sessionId of wanted) if (!this.followed.has(sessionId)) this.followed.set(sessionId, this.start(sessionId));
  }

  dispose(): void {
    for (const following of this.followed.values()) following.dispose();
    this.followed.clear();
  }

  private start(sessionId: string): Disposable {
    // The stream replays what is pending, so what an older connection showed is dropped when this one starts.
    let prompts: ConsentPrompt[] = [];
    this.sink(sessionId, 'consent', []);
    const consent = this.client.subscribe(
      'consent.prompts',
      { sessionId },
      {
        onItem: (event) => {
          prompts = event.kind === 'pending' ? [...prompts.filter((p) => p.id !== event.prompt.id), event.prompt] : prompts.filter((p) => p.id !== event.promptId);
          this.sink(sessionId, 'consent', prompts.map(consentItem));
        },
      },
    );
    const checkpoints = followLiveList(this.client, 'goal.watchCheckpoints', contract['goal.watchCheckpoints'], { sessionId }, (state) => {
      if (state.loaded) this.sink(sessionId, 'checkpoint', state.items.filter((c) => c.status === 'pending').map(checkpointItem));
    });
    return {
      dispose() {
        consent.dispose();
        checkpoints.dispose();
      },
    };
  }
}
