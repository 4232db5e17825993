import { existsSync } from 'node:fs';
import { databasePath, resolveHome } from '../node/home';
import { storedEntries } from '../node/ledger/storedEntries';
import { verifyChain } from '../node/ledger/verifyChain';
import { openDatabaseReadOnly } from '../node/store/database';
import { parseFlags, UsageError } from './args';

export const ledgerUsage = `  ledger verify [--home DIR]
        Check the audit ledger's hash chain and every payload commitment; exit 0 when intact, 1 when not.`;

/** `omni ledger …`: returns the process exit code. */
export function ledgerCommand(args: string[]): number {
  const [action, ...rest] = args;
  if (action !== 'verify') throw new UsageError(action ? `unknown ledger action "${action}"` : 'ledger needs an action, e.g. `omni ledger verify`');
  const flags = parseFlags(rest, { home: 'value' });
  const home = resolveHome(typeof flags.home === 'string' ? flags.home : undefined);
  const file = databasePath(home);
  if (!existsSync(file)) {
    console.error(`omni: no ledger at ${file}: nothing has been recorded in this home yet (choose another with --home)`);
    return 1;
  }
  const db = openDatabaseReadOnly(file);
  try {
    const verdict = verifyChain(storedEntries(db));
    if (verdict.intact) {
      console.log(`intact: ${verdict.size} entries, head ${verdict.headHash}, no signed checkpoint yet`);
      return 0;
    }
    console.log(`NOT INTACT: entry ${verdict.firstBadSeq} is the first bad one: ${verdict.reason} (entries 1-${verdict.size} are intact)`);
    return 1;
  } finally {
    db.close();
  }
}
