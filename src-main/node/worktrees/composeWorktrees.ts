import type { worktreeContract } from '../../../src-preload/contract/worktrees';
import type { Handlers } from '../../../src-preload/rpc';
import type { AreaComposition } from '../base/areaComposition';
import type { Ledger } from '../ledger/ledger';
import type { SessionService } from '../sessions/sessionService';
import type { SecretScrubber } from '../vault/secretScrubber';
import { createWorktreeHandlers } from './worktreeHandlers';
import { WorktreeService } from './worktreeService';

export interface WorktreesDeps {
  sessions: SessionService;
  ledger: Ledger;
  scrubber: SecretScrubber;
  actor: string;
}

/**
 * Worktree sessions back to their base: commit, merge, discard. Worktrees are made when a session is created
 * (sessions/composeSessions.ts); closing a session never removes one, only an explicit discard does.
 */
export function composeWorktrees({ sessions, ledger, scrubber, actor }: WorktreesDeps): AreaComposition<WorktreeService, Handlers<typeof worktreeContract>> {
  const worktrees = new WorktreeService(sessions, ledger);
  return { service: worktrees, handlers: createWorktreeHandlers(worktrees, sessions, scrubber, actor), dispose: () => undefined };
}
