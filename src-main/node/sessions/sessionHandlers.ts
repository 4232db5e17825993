import { sessionContract } from '../../../src-preload/contract/sessions';
import { liveListHandler, type Handlers } from '../../../src-preload/rpc';
import type { SecretScrubber } from '../vault/secretScrubber';
import { gitInfo } from '../worktrees/worktreeGit';
import { resolveWorkspace, type SessionService } from './sessionService';

/** How many recent workspaces the new-session form offers unless it asks for another number. */
const RECENT_WORKSPACES = 8;

/** The `session.*` calls and streams: sessions as the person at the UI creates, renames, closes and reopens them. */
export function createSessionHandlers(sessions: SessionService, scrubber: SecretScrubber, actor: string): Handlers<typeof sessionContract> {
  return {
    // A name is free text the user may paste anything into, and it is stored in the sessions table as well as the
    // ledger: scrubbed before either sees it.
    'session.create': ({ workspace, name, worktree }) => {
      const scrubbed = name === undefined ? undefined : scrubber.scrubText(name);
      return worktree ? sessions.createInWorktree(workspace, scrubbed, worktree.base, actor) : sessions.create(workspace, scrubbed, actor);
    },
    // Read-only (no filter, hook or checkout runs): what the new-session form needs to offer a worktree.
    'session.gitInfo': ({ workspace }) => gitInfo(resolveWorkspace(workspace)),
    'session.list': ({ includeClosed }) => sessions.list(includeClosed ?? false),
    'session.rename': ({ id, name }) => sessions.rename(id, scrubber.scrubText(name), actor),
    // Resolves once what ran in the session (terminals, runs, harness sessions) has stopped: see SessionService.onDidClose.
    'session.running': ({ id }) => sessions.running(id),
    'session.close': ({ id }) => sessions.close(id, actor),
    'session.recentWorkspaces': ({ limit }) => sessions.recentWorkspaces(limit ?? RECENT_WORKSPACES),
    'session.reopen': ({ id }) => sessions.reopen(id, actor),
    'session.watch': liveListHandler(sessionContract['session.watch'], {
      list: ({ includeClosed }) => sessions.list(includeClosed ?? false),
      // Sessions are never deleted; a closed one leaves a list of open ones (and comes back when reopened).
      onDidChange: ({ includeClosed }, emit) =>
        sessions.onDidChange(({ session }) =>
          emit(includeClosed || session.status === 'open' ? { kind: 'upsert', item: session } : { kind: 'remove', id: session.id }),
        ),
    }),
  };
}
