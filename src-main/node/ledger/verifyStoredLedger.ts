import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { LedgerVerdict } from '../../../src-preload/contract';
import { parseWorkerMessage } from '../base/workerMessage';
import { openDatabaseReadOnly } from '../store/database';
import { RangeWorkerMessage } from './rangeWorkerMessage';
import { storedCheckpoints, storedEntries } from './storedEntries';
import type { ChainVerdict } from './verifyChain';
import { CheckpointVerifier, verifyLedgerInSlices, type CheckpointTrust } from './verifyLedger';
import type { RangeRequest } from './verifyRangeWorker';

/** Below this many entries one thread is quicker than starting workers. */
const PARALLEL_FROM = 100_000;

/** The worker's script: the bundle next to this one in a build, the TypeScript source under tsx (tests, dev). */
function workerScript(): string | null {
  for (const name of ['verifyRangeWorker.cjs', 'verifyRangeWorker.js', 'verifyRangeWorker.ts']) {
    const file = join(__dirname, name);
    if (existsSync(file)) return file;
  }
  return null;
}

function verifyRangeInWorker(script: string, request: RangeRequest): Promise<ChainVerdict> {
  return new Promise((resolve, reject) => {
    // Under tsx (tests, development) the TypeScript source is loaded through tsx's CommonJS hook, which a worker does
    // not inherit; a build runs its bundled .cjs directly. The host never ships TypeScript, so tsx is a dev dependency.
    const worker = script.endsWith('.ts')
      ? new Worker(`require('tsx/cjs'); require(${JSON.stringify(script)});`, { eval: true, workerData: request })
      : new Worker(script, { workerData: request });
    worker.once('message', (raw: unknown) => {
      // A thread boundary: what arrives is checked, not trusted to be typed (a bad answer fails over to one thread).
      try {
        const message = parseWorkerMessage(RangeWorkerMessage, raw, 'a ledger verify thread');
        if (message.verdict) resolve(message.verdict);
        else reject(new Error(message.error));
      } catch (error) {
        reject(error);
      }
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`the verify worker exited with code ${code}`));
    });
  });
}

/** Joins the slices' verdicts in seq order: the first bad slice decides, and each slice must end where it should. */
function joinSlices(slices: { request: RangeRequest; verdict: ChainVerdict }[]): ChainVerdict {
  let redacted = 0;
  let elided = 0;
  for (const { request, verdict } of slices) {
    if (!verdict.intact) return verdict;
    if (verdict.size !== request.to) {
      return { intact: false, size: verdict.size, firstBadSeq: verdict.size + 1, reason: `entry ${verdict.size + 1} is missing` };
    }
    redacted += verdict.redacted;
    elided += verdict.elided;
  }
  const last = slices[slices.length - 1].verdict as ChainVerdict & { intact: true };
  return { intact: true, size: last.size, headHash: last.headHash, redacted, elided };
}

/**
 * Verifies the ledger in the database `file` (read-only): on a large ledger the chain is checked in slices by
 * worker threads, one per core (each opens its own read-only connection), and the checkpoints after; on a small
 * one, or when workers cannot start, in this thread in slices that keep it responsive. Same verdict either way.
 */
export interface VerifyStoredOptions {
  onProgress?: (checked: number) => void;
  /** Told how the chain is being checked: by `workers` threads, or in this one (and why). */
  onStrategy?: (strategy: { threads: number; why?: string }) => void;
}

export async function verifyStoredLedger(file: string, trust: CheckpointTrust, options: VerifyStoredOptions = {}): Promise<LedgerVerdict> {
  const { onProgress, onStrategy } = options;
  const db = openDatabaseReadOnly(file);
  try {
    // Checkpoints before the head: a checkpoint written meanwhile never names an entry this check does not see.
    const checkpoints = storedCheckpoints(db);
    const head = db.prepare<[], { seq: number }>('SELECT max(seq) AS seq FROM audit_ledger').get()?.seq ?? 0;
    const script = workerScript();
    const threads = Math.min(availableParallelism(), 8);
    const single = head < PARALLEL_FROM ? 'a small ledger' : threads < 2 ? 'one core' : !script ? 'no worker script' : undefined;
    if (single) {
      onStrategy?.({ threads: 1, why: single });
      return await verifyLedgerInSlices(storedEntries(db), checkpoints, trust, onProgress);
    }

    const requests: RangeRequest[] = [];
    const per = Math.ceil(head / threads);
    for (let from = 1; from <= head; from += per) requests.push({ file, from, to: Math.min(head, from + per - 1) });
    let verdicts: ChainVerdict[];
    try {
      verdicts = await Promise.all(requests.map((request) => verifyRangeInWorker(script!, request)));
      onStrategy?.({ threads: requests.length });
    } catch (error) {
      // Workers are an optimisation: the same check in this thread says the same thing, only slower.
      onStrategy?.({ threads: 1, why: `the workers failed (${error instanceof Error ? error.message : String(error)})` });
      return await verifyLedgerInSlices(storedEntries(db), checkpoints, trust, onProgress);
    }
    const chain = joinSlices(requests.map((request, i) => ({ request, verdict: verdicts[i] })));
    onProgress?.(chain.size);

    const hashAt = db.prepare<[number], { entry_hash: Buffer }>('SELECT entry_hash FROM audit_ledger WHERE seq = ?');
    const first = hashAt.get(1)?.entry_hash;
    const verifier = new CheckpointVerifier(checkpoints, trust, first);
    const verifiedUpTo = chain.intact ? chain.size : chain.firstBadSeq - 1;
    for (const seq of verifier.seqs) {
      if (seq > verifiedUpTo) break;
      const bad = verifier.at(seq, hashAt.get(seq)!.entry_hash);
      if (bad) return bad;
    }
    return chain.intact ? verifier.finish(chain) : chain;
  } finally {
    db.close();
  }
}
