import { acpContract } from './acp';
import { agentContract } from './agents';
import { changesContract } from './changes';
import { consentContract } from './consent';
import { credentialContract } from './credentials';
import { execContract } from './exec';
import { folderContract } from './folders';
import { harnessContract } from './harness';
import { goalContract } from './goal';
import { hostContract } from './host';
import { ledgerContract } from './ledger';
import { sessionContract } from './sessions';
import { terminalContract } from './terminals';
import { worktreeContract } from './worktrees';

/** The one map of every call and stream between the UI and the host. Names are written here and nowhere else. */
export const contract = {
  ...hostContract,
  ...sessionContract,
  ...folderContract,
  ...terminalContract,
  ...ledgerContract,
  ...consentContract,
  ...agentContract,
  ...execContract,
  ...credentialContract,
  ...goalContract,
  ...harnessContract,
  ...acpContract,
  ...changesContract,
  ...worktreeContract,
};
export type Contract = typeof contract;

export * from './acp';
export * from './agentEvents';
export * from './agents';
export * from './changes';
export * from './consent';
export * from './credentials';
export * from './define';
export * from './errors';
export * from './exec';
export * from './folders';
export * from './harness';
export * from './goal';
export * from './host';
export * from './ledger';
export * from './sessions';
export * from './terminals';
export * from './worktrees';
