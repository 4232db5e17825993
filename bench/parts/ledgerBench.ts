// The audit ledger's figures, each next to a reference measured in the same process and the same run. Run by
// bench/parts/ledger.mjs, bundled as the app ships it (it measures the real modules); prints one JSON object on stdout.
//
//   append      Ledger.append (scrubbed, canonical JSON, salted commitment, hash chain, queued, written in batches)
//               against the floor for storing the same rows: a raw prepared INSERT of the same columns into a table of
//               the same schema (its indexes and append-only triggers), 1,000 rows per transaction, with one SHA-256 of
//               JSON.stringify(payload) per row. The goal is on wall-clock time; the CPU time of each side (this process's
//               user + system time) is reported beside it, since on a shared machine wall-clock time also measures
//               how long the process waited for a core.
//   durable     one entry per transaction (append + flush), against one raw INSERT per autocommit; both in WAL with
//               synchronous=NORMAL, the durability the app runs with.
//   verify      verifyStoredLedger over a 1M-entry ledger with signed checkpoints; the goal is absolute (< 5 s).
import { generateKeyPairSync, hash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ledger } from '../../src-main/node/ledger/ledger';
import { signingKeyOf } from '../../src-main/node/ledger/ledgerSigningKey';
import { verifyStoredLedger } from '../../src-main/node/ledger/verifyStoredLedger';
import { openDatabase, type Database } from '../../src-main/node/store/database';
import { SecretRegistry } from '../../src-main/node/vault/secretRegistry';
import { SecretScrubber } from '../../src-main/node/vault/secretScrubber';

const APPEND_ENTRIES = Number(process.env.BENCH_LEDGER_APPENDS ?? 100_000);
const DURABLE_ENTRIES = Number(process.env.BENCH_LEDGER_DURABLE ?? 3_000);
const VERIFY_ENTRIES = Number(process.env.BENCH_LEDGER_VERIFY ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_LEDGER_ROUNDS ?? 5);

const dir = mkdtempSync(join(tmpdir(), 'omni-bench-ledger-'));
let files = 0;
const freshDb = (): Database => openDatabase(join(dir, `db-${files++}.db`));

const types = ['exec.spawn', 'grant.issue', 'file.write', 'net.request', 'terminal.open'];
const payloadOf = (i: number) => ({ argv: ['npm', 'run', `task-${i % 17}`], cwd: `/work/project-${i % 5}`, pid: 10_000 + i, ok: i % 2 === 0 });
const ZERO32 = Buffer.alloc(32);
const ZERO16 = Buffer.alloc(16);

/** This process's CPU time (user + system) in ms. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

interface PerEntry {
  /** Wall-clock µs per entry. */
  us: number;
  /** CPU µs per entry. */
  cpuUs: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function rawBatched(n: number): PerEntry {
  const db = freshDb();
  const insert = db.prepare(
    'INSERT INTO audit_ledger (seq, ts, type, actor, session_id, payload_commit, prev_hash, entry_hash, payload, salt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const batch = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const payload = JSON.stringify(payloadOf(i));
      insert.run(i + 1, Date.now(), types[i % types.length], `agent-${i % 7}`, `ses_bench${i % 11}`, ZERO32, ZERO32, hash('sha256', payload, 'buffer'), payload, ZERO16);
    }
  });
  const started = performance.now();
  const cpuStarted = cpuMs();
  for (let i = 0; i < n; i += 1000) batch(i, Math.min(n, i + 1000));
  const result = { us: ((performance.now() - started) * 1000) / n, cpuUs: ((cpuMs() - cpuStarted) * 1000) / n };
  db.close();
  return result;
}

function ledgerBatched(n: number): PerEntry {
  const db = freshDb();
  // As the host composes it: the vault's scrubber runs on every payload at ingest.
  const scrubber = new SecretScrubber(new SecretRegistry());
  const ledger = new Ledger(db, { scrub: (payload) => scrubber.scrubPayload(payload) });
  const started = performance.now();
  const cpuStarted = cpuMs();
  for (let i = 0; i < n; i++) ledger.append({ type: types[i % types.length], actor: `agent-${i % 7}`, sessionId: `ses_bench${i % 11}`, payload: payloadOf(i) });
  ledger.flush();
  const result = { us: ((performance.now() - started) * 1000) / n, cpuUs: ((cpuMs() - cpuStarted) * 1000) / n };
  ledger.dispose();
  db.close();
  return result;
}

/** Entries per second, one transaction each. */
function rawDurable(n: number): number {
  const db = freshDb();
  const insert = db.prepare(
    'INSERT INTO audit_ledger (seq, ts, type, actor, session_id, payload_commit, prev_hash, entry_hash, payload, salt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const started = performance.now();
  for (let i = 0; i < n; i++) {
    const payload = JSON.stringify(payloadOf(i));
    insert.run(i + 1, Date.now(), types[i % types.length], 'agent-1', 'ses_bench1', ZERO32, ZERO32, hash('sha256', payload, 'buffer'), payload, ZERO16);
  }
  const rate = n / ((performance.now() - started) / 1000);
  db.close();
  return rate;
}

function ledgerDurable(n: number): number {
  const db = freshDb();
  const ledger = new Ledger(db);
  const started = performance.now();
  for (let i = 0; i < n; i++) {
    ledger.append({ type: types[i % types.length], actor: 'agent-1', sessionId: 'ses_bench1', payload: payloadOf(i) });
    ledger.flush();
  }
  const rate = n / ((performance.now() - started) / 1000);
  ledger.dispose();
  db.close();
  return rate;
}

async function verifyLarge(n: number) {
  const file = join(dir, 'verify.db');
  const db = openDatabase(file);
  const key = signingKeyOf(generateKeyPairSync('ed25519').privateKey);
  const ledger = new Ledger(db);
  ledger.append({ type: 'host.start', actor: 'host' });
  ledger.startSigning(key, null);
  const buildStarted = performance.now();
  for (let i = 1; i < n; i++) ledger.append({ type: types[i % types.length], actor: `agent-${i % 7}`, sessionId: `ses_bench${i % 11}`, payload: payloadOf(i) });
  await ledger.close();
  db.close();
  const buildMs = performance.now() - buildStarted;
  const runs: number[] = [];
  let threads = 0;
  let intact = false;
  for (let round = 0; round < 2; round++) {
    const started = performance.now();
    const verdict = await verifyStoredLedger(file, { publicKey: key.publicKey, source: 'key-file' }, { onStrategy: (s) => (threads = s.threads) });
    runs.push(performance.now() - started);
    intact = verdict.intact && verdict.size === n && verdict.checkpoint?.seq === n;
  }
  return { entries: n, buildMs, verifyMs: Math.min(...runs), runsMs: runs, threads, intact };
}

async function main() {
  const raw: PerEntry[] = [];
  const product: PerEntry[] = [];
  // Alternating, so drift of the machine hits both sides alike; one warm-up round of each first.
  rawBatched(10_000);
  ledgerBatched(10_000);
  for (let round = 0; round < ROUNDS; round++) {
    raw.push(rawBatched(APPEND_ENTRIES));
    product.push(ledgerBatched(APPEND_ENTRIES));
  }
  const rawDurableRates: number[] = [];
  const durableRates: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    rawDurableRates.push(rawDurable(DURABLE_ENTRIES));
    durableRates.push(ledgerDurable(DURABLE_ENTRIES));
  }
  const verify = await verifyLarge(VERIFY_ENTRIES);
  const result = {
    append: {
      entries: APPEND_ENTRIES,
      ledgerUsPerEntry: median(product.map((r) => r.us)),
      referenceUsPerEntry: median(raw.map((r) => r.us)),
      ratio: median(raw.map((r) => r.us)) / median(product.map((r) => r.us)),
      cpu: {
        ledgerUsPerEntry: median(product.map((r) => r.cpuUs)),
        referenceUsPerEntry: median(raw.map((r) => r.cpuUs)),
        ratio: median(raw.map((r) => r.cpuUs)) / median(product.map((r) => r.cpuUs)),
      },
      runs: { product: product.map((r) => r.us), reference: raw.map((r) => r.us), productCpu: product.map((r) => r.cpuUs), referenceCpu: raw.map((r) => r.cpuUs) },
    },
    durable: { entries: DURABLE_ENTRIES, ledgerPerSec: median(durableRates), referencePerSec: median(rawDurableRates), ratio: median(durableRates) / median(rawDurableRates) },
    verify,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main()
  .catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(() => rmSync(dir, { recursive: true, force: true }));
