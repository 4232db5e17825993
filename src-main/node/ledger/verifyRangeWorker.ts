// A worker thread that verifies one slice of a ledger's hash chain (see verifyStoredLedger.ts). Built as its own
// bundle next to each entry point that may start it (scripts/build.mjs).
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabaseReadOnly } from '../store/database';
import { GENESIS_HASH } from './entryHash';
import { storedEntries } from './storedEntries';
import { ChainVerifier, type ChainVerdict } from './verifyChain';

export interface RangeRequest {
  file: string;
  from: number;
  to: number;
}

function verifyRange({ file, from, to }: RangeRequest): ChainVerdict {
  const db = openDatabaseReadOnly(file);
  try {
    const before = from === 1 ? undefined : db.prepare<[number], { entry_hash: Buffer }>('SELECT entry_hash FROM audit_ledger WHERE seq = ?').get(from - 1);
    // A missing entry before the slice is reported by the slice that should end with it; here it just fails the link.
    const verifier = new ChainVerifier({ seq: from, prevHash: from === 1 ? GENESIS_HASH : (before?.entry_hash ?? Buffer.alloc(0)) });
    for (const entry of storedEntries(db, from, to)) if (verifier.push(entry)) break;
    return verifier.finish();
  } finally {
    db.close();
  }
}

if (parentPort && workerData) {
  try {
    parentPort.postMessage({ verdict: verifyRange(workerData as RangeRequest) });
  } catch (error) {
    parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
}
