import { create } from 'zustand';
import { contract, type ChangeTurn, type Contract } from '../../../src-preload/contract';
import type { RpcClient } from '../../../src-preload/rpc/rpcClient';
import { errorMessage } from '../errorMessage';
import { followLiveList, type LiveListFollower } from '../liveList';

export interface SessionTurns {
  readonly items: readonly ChangeTurn[];
  /** False until the host's first snapshot came: "nothing yet" is not "no turns". */
  readonly loaded: boolean;
  /** Why the list stopped following the host, as the host put it; null while it follows. */
  readonly error: string | null;
}

export const noTurns: SessionTurns = { items: [], loaded: false, error: null };

/** Every followed session's turns, by session id. */
export const useTurns = create<{ sessions: Record<string, SessionTurns> }>(() => ({ sessions: {} }));

interface Following {
  client: RpcClient<Contract>;
  follower: LiveListFollower;
  holders: number;
}

const following = new Map<string, Following>();

/**
 * Follows a session's `changes.turns` for one more holder (a badge, the Changes panel) and returns the release.
 * However many cards show a badge, a session has one subscription: the first holder opens it, the last one closes it.
 * A new connection (another client) replaces the subscription; its fresh snapshot replaces the list.
 */
export function holdSessionTurns(client: RpcClient<Contract>, sessionId: string): () => void {
  let entry = following.get(sessionId);
  if (entry && entry.client !== client) {
    entry.follower.dispose();
    following.delete(sessionId);
    entry = undefined;
  }
  if (!entry) {
    const follower = followLiveList(client, 'changes.turns', contract['changes.turns'], { sessionId }, (state) =>
      useTurns.setState((s) => ({
        sessions: { ...s.sessions, [sessionId]: { items: state.items, loaded: state.loaded, error: state.error ? errorMessage(state.error) : null } },
      })),
    );
    entry = { client, follower, holders: 0 };
    following.set(sessionId, entry);
  }
  const held = entry;
  held.holders++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    held.holders--;
    if (held.holders > 0) return;
    held.follower.dispose();
    if (following.get(sessionId) === held) following.delete(sessionId);
  };
}

/** How many subscriptions are open (one per followed session): for tests. */
export function followedSessionCount(): number {
  return following.size;
}
