import type { Migration } from './migration';
import { v01SessionsAndLedger } from './migrations/v01SessionsAndLedger';
import { v02HashChainedLedger } from './migrations/v02HashChainedLedger';
import { v03LedgerCheckpoints } from './migrations/v03LedgerCheckpoints';
import { v04EventLog } from './migrations/v04EventLog';
import { v05LedgerActorFilter } from './migrations/v05LedgerActorFilter';
import { v06ConsentGrantsAndRules } from './migrations/v06ConsentGrantsAndRules';
import { v07AgentKvAndScratchpad } from './migrations/v07AgentKvAndScratchpad';
import { v08ShellRuns } from './migrations/v08ShellRuns';
import { v09CredentialConnections } from './migrations/v09CredentialConnections';
import { v10HostProtocolCheckpoints } from './migrations/v10HostProtocolCheckpoints';
import { v11HarnessSessions } from './migrations/v11HarnessSessions';
import { v12ExecRunsInterrupted } from './migrations/v12ExecRunsInterrupted';
import { v13ChangesSnapshotsAndTurns } from './migrations/v13ChangesSnapshotsAndTurns';
import { v14SessionWorktrees } from './migrations/v14SessionWorktrees';
import { v15OAuthClients } from './migrations/v15OAuthClients';
import { v16BuiltInOAuthClients } from './migrations/v16BuiltInOAuthClients';

export type { Migration } from './migration';

/** Every schema migration, in order (store/migrations/: one file each). */
export const migrations: readonly Migration[] = [
  v01SessionsAndLedger,
  v02HashChainedLedger,
  v03LedgerCheckpoints,
  v04EventLog,
  v05LedgerActorFilter,
  v06ConsentGrantsAndRules,
  v07AgentKvAndScratchpad,
  v08ShellRuns,
  v09CredentialConnections,
  v10HostProtocolCheckpoints,
  v11HarnessSessions,
  v12ExecRunsInterrupted,
  v13ChangesSnapshotsAndTurns,
  v14SessionWorktrees,
  v15OAuthClients,
  v16BuiltInOAuthClients,
];
