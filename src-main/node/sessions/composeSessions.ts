import type { folderContract } from '../../../src-preload/contract/folders';
import type { sessionContract } from '../../../src-preload/contract/sessions';
import type { Handlers } from '../../../src-preload/rpc';
import type { AreaComposition } from '../base/areaComposition';
import type { Ledger } from '../ledger/ledger';
import type { Database } from '../store/database';
import type { SecretScrubber } from '../vault/secretScrubber';
import { join } from 'node:path';
import { addWorktree } from '../worktrees/worktreeGit';
import { createFolderHandlers } from './folderHandlers';
import { createSessionHandlers } from './sessionHandlers';
import { SessionService } from './sessionService';

export interface SessionsDeps {
  /** The app home: worktree sessions get their worktree under `<home>/worktrees/<session id>`. */
  home: string;
  db: Database;
  ledger: Ledger;
  scrubber: SecretScrubber;
  actor: string;
}

/**
 * Sessions on workspace folders, and the folder browser that picks one; the parts that run things in a session
 * listen to `onDidClose` and register what they run (`registerRunning`).
 */
export function composeSessions({ home, db, ledger, scrubber, actor }: SessionsDeps): AreaComposition<SessionService, Handlers<typeof sessionContract & typeof folderContract>> {
  const sessions = new SessionService(db, ledger, Date.now, (options) => addWorktree({ ...options, root: join(home, 'worktrees') }));
  return { service: sessions, handlers: { ...createSessionHandlers(sessions, scrubber, actor), ...createFolderHandlers(ledger, actor) }, dispose: () => sessions.dispose() };
}
