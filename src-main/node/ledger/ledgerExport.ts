import { createWriteStream, existsSync, mkdirSync, renameSync, rmSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import type { Database } from '../store/database';
import { DomainError } from '../base/domainError';
import { describeLedgerVerdict } from '../../../src-preload/contract';
import { canonicalJson } from './canonicalJson';
import { exportEndMessage, type Checkpoint } from './checkpoint';
import { EXPORT_FORMAT, EXPORT_VERSION, type ExportHeader } from './exportFormat';
import type { LedgerSigningKey } from './ledgerSigningKey';
import { storedCheckpoints, storedEntries, storedLedgerId } from './storedEntries';
import type { StoredEntry } from './verifyChain';
import { LedgerVerifier, type CheckpointTrust } from './verifyLedger';

export interface ExportOptions {
  /** Disclose only this session's entries; the others are elided to their place in the chain. */
  sessionId?: string;
  /** Redact every payload (the export then shows who did what when, and proves it, without the details). */
  redactAll?: boolean;
  /** Redact the payloads of these types; `prefix.*` matches a family (e.g. `terminal.*`). */
  redactTypes?: string[];
  /**
   * Withhold these fields (a top-level key, or a dotted path such as `env.TOKEN`) wherever a payload has them. The
   * commitment covers the whole payload, so such an entry's payload and salt are withheld as a whole (its commitment
   * stays, and the chain verifies), and the rest of the payload is shown beside it as `disclosed`, without the
   * withheld fields. `disclosed` is what the exporter shows, not something the commitment proves (exportFormat.ts).
   */
  redactFields?: string[];
}

export interface ExportControl {
  onProgress?: (progress: ExportProgress) => void;
  /** Aborting stops the export between slices; the partial file is removed. */
  signal?: AbortSignal;
  now?: () => number;
  /**
   * Signs the end line with the ledger's key, after checking every exported entry against `trust` (the keychain's
   * key and record) on the way: only a ledger that verifies gets a signed end. Without it the end is unsigned.
   */
  signEnd?: { key: LedgerSigningKey; trust: CheckpointTrust };
}

export interface ExportProgress {
  written: number;
  total: number;
}

export interface ExportSummary {
  file: string;
  entries: number;
  redacted: number;
  elided: number;
  checkpoints: number;
  bytes: number;
  ledgerId: string;
  headHash: string;
  /** Whether the end line is signed; if not, why (an unsigned export fails `verify --key`). */
  signed: boolean;
  unsignedWhy?: string;
}

/** An export that cannot be made as asked (the user's to fix: the path, the range); a DomainError of kind state. */
export class LedgerExportError extends DomainError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('state', message, options);
    this.name = 'LedgerExportError';
  }
}

const hex = (buffer: Buffer | null): string | null => (buffer ? buffer.toString('hex') : null);

function typeMatcher(patterns: string[]): (type: string) => boolean {
  const exact = new Set(patterns.filter((p) => !p.endsWith('*')));
  const prefixes = patterns.filter((p) => p.endsWith('*')).map((p) => p.slice(0, -1));
  return (type) => exact.has(type) || prefixes.some((prefix) => type.startsWith(prefix));
}

function hasPath(payload: unknown, path: string[]): boolean {
  let node = payload;
  for (const key of path) {
    if (node === null || typeof node !== 'object' || !Object.prototype.hasOwnProperty.call(node, key)) return false;
    node = (node as Record<string, unknown>)[key];
  }
  return true;
}

/** `payload` without the value at `path` (a copy; the parents on the way are copied, nothing else). */
function withoutPath(payload: Record<string, unknown>, path: string[]): Record<string, unknown> {
  const [key, ...rest] = path;
  const copy = { ...payload };
  const child = copy[key];
  if (rest.length === 0) delete copy[key];
  // A parent already withheld (both `env` and `env.TOKEN` asked for) stays withheld.
  else if (child !== null && typeof child === 'object' && !Array.isArray(child)) copy[key] = withoutPath(child as Record<string, unknown>, rest);
  return copy;
}

interface Redaction {
  /** Why: "all", "type", or "field:<path>[,<path>…]" (the fields this payload had). */
  why: string;
  /** With fields withheld: the rest of the payload, shown beside the withheld whole. */
  disclosed?: Record<string, unknown>;
}

/** Why `entry`'s payload is withheld from the export (and what of it is still shown), or null to disclose it. */
function redactionOf(entry: StoredEntry, options: ExportOptions, typeRedacted: (type: string) => boolean, fields: string[][]): Redaction | null {
  if (options.redactAll) return { why: 'all' };
  if (typeRedacted(entry.type)) return { why: 'type' };
  if (fields.length > 0 && entry.payload !== null) {
    const payload = JSON.parse(entry.payload) as Record<string, unknown>;
    const present = fields.filter((path) => hasPath(payload, path));
    if (present.length > 0) {
      return { why: `field:${present.map((path) => path.join('.')).join(',')}`, disclosed: present.reduce(withoutPath, payload) };
    }
  }
  return null;
}

function checkpointLine(checkpoint: Checkpoint): string {
  return JSON.stringify({
    checkpoint: {
      size: checkpoint.size,
      ts: checkpoint.ts,
      headHash: checkpoint.headHash.toString('hex'),
      prevSignature: hex(checkpoint.prevSignature),
      signature: checkpoint.signature.toString('hex'),
      publicKey: checkpoint.publicKey.toString('base64'),
    },
  });
}

/** Writes lines with backpressure, in chunks: a million small writes would cost more than the export itself. */
class LineWriter {
  private chunk: string[] = [];
  private chunkLength = 0;
  bytes = 0;

  constructor(private readonly stream: WriteStream) {}

  async line(text: string): Promise<void> {
    this.chunk.push(text, '\n');
    this.chunkLength += text.length + 1;
    if (this.chunkLength >= 1 << 20) await this.drain();
  }

  async drain(): Promise<void> {
    if (this.chunk.length === 0) return;
    const data = Buffer.from(this.chunk.join(''), 'utf8');
    this.chunk = [];
    this.chunkLength = 0;
    this.bytes += data.length;
    if (!this.stream.write(data)) await new Promise<void>((resolve) => this.stream.once('drain', resolve));
  }

  async close(): Promise<void> {
    await this.drain();
    await new Promise<void>((resolve, reject) => this.stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
  }
}

/**
 * Writes the ledger of `db` (best a read-only snapshot: the export is then one consistent state however long it
 * takes) to `file`, as exportFormat.ts describes. The file appears under its name only when complete: it is
 * written as `<file>.partial` and renamed at the end (and removed if anything fails).
 */
export async function exportLedger(
  db: Database,
  file: string,
  options: ExportOptions = {},
  control: ExportControl = {},
): Promise<ExportSummary> {
  const onProgress = control.onProgress ?? (() => {});
  const now = control.now ?? Date.now;
  const ledgerId = storedLedgerId(db);
  if (!ledgerId) throw new LedgerExportError('the ledger is empty: there is nothing to export yet');
  const head = db.prepare<[], { seq: number; entry_hash: Buffer }>('SELECT seq, entry_hash FROM audit_ledger ORDER BY seq DESC LIMIT 1').get()!;
  if (options.sessionId) {
    const found = db.prepare('SELECT 1 FROM audit_ledger WHERE session_id = ? LIMIT 1').get(options.sessionId);
    if (!found) throw new LedgerExportError(`the ledger has no entries of session ${options.sessionId}: check the id (omni ledger export --session ID)`);
  }
  const checkpoints = storedCheckpoints(db).filter((c) => c.size <= head.seq);
  const header: ExportHeader = {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    ledgerId,
    exportedAt: now(),
    size: head.seq,
    headHash: head.entry_hash.toString('hex'),
    session: options.sessionId ?? null,
    redaction: { all: options.redactAll ?? false, types: options.redactTypes ?? [], fields: options.redactFields ?? [] },
  };
  const typeRedacted = typeMatcher(options.redactTypes ?? []);
  const fields = (options.redactFields ?? []).map((f) => f.split('.'));

  const partial = `${file}.partial`;
  let stream: WriteStream;
  try {
    stream = createWriteStream(partial, { mode: 0o600 });
    await new Promise<void>((resolve, reject) => stream.once('open', () => resolve()).once('error', reject));
  } catch (error) {
    throw new LedgerExportError(`cannot write ${file}: ${(error as Error).message}`, { cause: error });
  }
  const writer = new LineWriter(stream);
  const verifier = control.signEnd ? new LedgerVerifier(checkpoints, control.signEnd.trust) : undefined;
  let verifiedBad: string | undefined;
  let written = 0;
  let redacted = 0;
  let elided = 0;
  let signed = false;
  let unsignedWhy: string | undefined;
  try {
    await writer.line(JSON.stringify(header));
    for (const checkpoint of checkpoints) await writer.line(checkpointLine(checkpoint));
    for (const entry of storedEntries(db)) {
      if (entry.seq > head.seq) break;
      if (verifier && !verifiedBad) {
        const bad = verifier.push(entry);
        if (bad) verifiedBad = describeLedgerVerdict(bad);
      }
      if (options.sessionId && entry.sessionId !== options.sessionId) {
        elided++;
        await writer.line(`{"seq":${entry.seq},"prevHash":"${entry.prevHash.toString('hex')}","entryHash":"${entry.entryHash.toString('hex')}","elided":true}`);
      } else {
        const redaction = redactionOf(entry, options, typeRedacted, fields);
        if (redaction) redacted++;
        const withheld = redaction
          ? `"payload":null,"salt":null,"redacted":${JSON.stringify(redaction.why)}${redaction.disclosed ? `,"disclosed":${canonicalJson(redaction.disclosed)}` : ''}}`
          : null;
        // The stored payload is canonical JSON already: it goes into the line as it is.
        await writer.line(
          `{"seq":${entry.seq},"ts":${entry.ts},"type":${JSON.stringify(entry.type)},"actor":${JSON.stringify(entry.actor)},` +
            `"sessionId":${JSON.stringify(entry.sessionId)},"payloadCommit":"${entry.payloadCommit.toString('hex')}",` +
            `"prevHash":"${entry.prevHash.toString('hex')}","entryHash":"${entry.entryHash.toString('hex')}",` +
            (withheld ?? `"payload":${entry.payload},"salt":"${hex(entry.salt)}"}`),
        );
      }
      if (++written % 20_000 === 0) {
        onProgress({ written, total: head.seq });
        await new Promise((resolve) => setImmediate(resolve));
        if (control.signal?.aborted) throw new LedgerExportError('the export was cancelled; no file was written');
      }
    }
    const end = signedEnd(control.signEnd?.key, verifier, verifiedBad, { ledgerId, head, checkpoints });
    await writer.line(JSON.stringify({ end: { entries: written, checkpoints: checkpoints.length, size: head.seq, headHash: header.headHash, signature: end.signature } }));
    signed = end.signature !== null;
    unsignedWhy = end.why;
    await writer.close();
    renameSync(partial, file);
  } catch (error) {
    stream.destroy();
    rmSync(partial, { force: true });
    throw error instanceof LedgerExportError ? error : new LedgerExportError(`export to ${file} failed: ${(error as Error).message}`, { cause: error });
  }
  onProgress({ written, total: head.seq });
  return {
    file,
    entries: written,
    redacted,
    elided,
    checkpoints: checkpoints.length,
    bytes: writer.bytes,
    ledgerId,
    headHash: header.headHash,
    signed,
    ...(unsignedWhy ? { unsignedWhy } : {}),
  };
}

/** The end line's signature, or null and why not: no key, or the ledger did not verify as it was written out. */
function signedEnd(
  key: LedgerSigningKey | undefined,
  verifier: LedgerVerifier | undefined,
  verifiedBad: string | undefined,
  ledger: { ledgerId: string; head: { seq: number; entry_hash: Buffer }; checkpoints: Checkpoint[] },
): { signature: string | null; why?: string } {
  if (!key || !verifier) return { signature: null, why: 'no signing key was at hand (the keychain is off or holds no key for this ledger)' };
  const verdict = verifiedBad ? undefined : verifier.finish();
  if (!verdict?.intact) return { signature: null, why: `the ledger does not verify, so nothing is signed over it: ${verifiedBad ?? describeLedgerVerdict(verdict!)}` };
  const newest = ledger.checkpoints[ledger.checkpoints.length - 1];
  const message = exportEndMessage(Buffer.from(ledger.ledgerId, 'hex'), ledger.head.seq, ledger.head.entry_hash, newest?.signature ?? null);
  return { signature: key.sign(message).toString('hex') };
}

/** A new file in `<home>/exports` named for the moment (and the session), never one that exists already. */
export function newExportPath(home: string, sessionId: string | undefined, at: Date): string {
  const dir = join(home, 'exports');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stamp = at.toISOString().replace(/\.\d+Z$/, 'Z').replace(/:/g, '-');
  const base = `ledger-${stamp}${sessionId ? `-${sessionId.replace(/[^A-Za-z0-9_-]/g, '_')}` : ''}`;
  for (let n = 1; ; n++) {
    const file = join(dir, n === 1 ? `${base}.jsonl` : `${base}-${n}.jsonl`);
    if (!existsSync(file) && !existsSync(`${file}.partial`)) return file;
  }
}
