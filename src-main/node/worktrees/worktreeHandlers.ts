import type { worktreeContract } from '../../../src-preload/contract/worktrees';
import type { Handlers } from '../../../src-preload/rpc';
import type { SessionService } from '../sessions/sessionService';
import type { SecretScrubber } from '../vault/secretScrubber';
import type { WorktreeService } from './worktreeService';

/** The `worktree.*` calls: a worktree session's commit, merge and discard, as the person at the UI asks for them. */
export function createWorktreeHandlers(worktrees: WorktreeService, sessions: SessionService, scrubber: SecretScrubber, actor: string): Handlers<typeof worktreeContract> {
  return {
    'worktree.status': ({ sessionId }) => worktrees.status(sessionId),
    // A commit message is free text that ends up in the repository's history: scrubbed first, as every stored text.
    'worktree.commit': ({ sessionId, message }) => {
      sessions.getOpen(sessionId);
      return worktrees.commit(sessionId, scrubber.scrubText(message), actor);
    },
    'worktree.merge': ({ sessionId, mode }) => worktrees.merge(sessionId, mode, actor),
    'worktree.discardPlan': ({ sessionId }) => worktrees.discardPlan(sessionId),
    'worktree.discard': ({ sessionId, token }) => worktrees.discard(sessionId, token, actor),
  };
}
