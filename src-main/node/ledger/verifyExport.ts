import { createReadStream, openSync, readSync, closeSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { LedgerVerdict } from '../../../src-preload/contract';
import { canonicalJson } from './canonicalJson';
import { exportEndMessage, exportEndSignatureValid, type Checkpoint } from './checkpoint';
import { EXPORT_FORMAT, EXPORT_VERSION, type ExportHeader } from './exportFormat';
import type { StoredEntry } from './verifyChain';
import { LedgerVerifier } from './verifyLedger';

/** The file is not a ledger export this version can read at all (as opposed to an export that fails to verify). */
export class LedgerFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LedgerFileError';
  }
}

export interface ExportCheck {
  header: ExportHeader;
  verdict: LedgerVerdict;
  /** The entry hash at each seq asked for in `remember` (for --extends). */
  remembered: Map<number, string>;
}

const HEX32 = /^[0-9a-f]{64}$/;
const HEX16 = /^[0-9a-f]{32}$/;
const HEX64 = /^[0-9a-f]{128}$/;

/** Checks one parsed line's field; the message names the line and the field, and says what was expected. */
class LineReader {
  constructor(
    readonly lineNumber: number,
    private readonly value: Record<string, unknown>,
  ) {}

  private fail(field: string, expected: string): never {
    throw new LineError(this.lineNumber, `field "${field}" must be ${expected}`);
  }

  int(field: string): number {
    const v = this.value[field];
    return Number.isSafeInteger(v) ? (v as number) : this.fail(field, 'a whole number');
  }

  string(field: string): string {
    const v = this.value[field];
    return typeof v === 'string' ? v : this.fail(field, 'a string');
  }

  nullableString(field: string): string | null {
    const v = this.value[field];
    return v === null || typeof v === 'string' ? v : this.fail(field, 'a string or null');
  }

  bytes(field: string, pattern: RegExp, what: string): Buffer {
    const v = this.value[field];
    return typeof v === 'string' && pattern.test(v) ? Buffer.from(v, 'hex') : this.fail(field, what);
  }
}

class LineError extends Error {
  constructor(
    readonly lineNumber: number,
    what: string,
  ) {
    super(`line ${lineNumber}: ${what}`);
  }
}

function parseLine(text: string, lineNumber: number): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new LineError(lineNumber, `not valid JSON (${(error as Error).message})`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new LineError(lineNumber, 'not a JSON object');
  return value as Record<string, unknown>;
}

function parseHeader(text: string, file: string): ExportHeader {
  let value: Record<string, unknown>;
  try {
    value = parseLine(text, 1);
  } catch {
    throw new LedgerFileError(`${file} is not a ledger export: its first line is not the JSON header of one`);
  }
  if (value.format !== EXPORT_FORMAT) throw new LedgerFileError(`${file} is not a ledger export (its header names no "${EXPORT_FORMAT}" format)`);
  if (value.version !== EXPORT_VERSION) {
    throw new LedgerFileError(`${file} is a ledger export of version ${String(value.version)}; this Omniscient Shell reads version ${EXPORT_VERSION}: update it`);
  }
  const line = new LineReader(1, value);
  const redaction = (value.redaction ?? {}) as ExportHeader['redaction'];
  try {
    return {
      format: EXPORT_FORMAT,
      version: EXPORT_VERSION,
      ledgerId: line.bytes('ledgerId', HEX32, '64 hex digits').toString('hex'),
      exportedAt: line.int('exportedAt'),
      size: line.int('size'),
      headHash: line.bytes('headHash', HEX32, '64 hex digits').toString('hex'),
      session: line.nullableString('session'),
      redaction: { all: redaction.all === true, types: Array.isArray(redaction.types) ? redaction.types : [], fields: Array.isArray(redaction.fields) ? redaction.fields : [] },
    };
  } catch (error) {
    throw new LedgerFileError(`${file} has a malformed header: ${(error as Error).message}`);
  }
}

function parseCheckpoint(value: Record<string, unknown>, lineNumber: number): Checkpoint {
  const raw = value.checkpoint;
  if (raw === null || typeof raw !== 'object') throw new LineError(lineNumber, 'field "checkpoint" must be an object');
  const line = new LineReader(lineNumber, raw as Record<string, unknown>);
  const prev = (raw as Record<string, unknown>).prevSignature;
  const publicKey = line.string('publicKey');
  return {
    size: line.int('size'),
    ts: line.int('ts'),
    headHash: line.bytes('headHash', HEX32, '64 hex digits'),
    prevSignature: prev === null ? null : line.bytes('prevSignature', HEX64, '128 hex digits or null'),
    signature: line.bytes('signature', HEX64, '128 hex digits'),
    publicKey: Buffer.from(publicKey, 'base64'),
  };
}

function parseEntry(value: Record<string, unknown>, lineNumber: number): StoredEntry {
  const line = new LineReader(lineNumber, value);
  if (value.elided === true) {
    return {
      seq: line.int('seq'),
      ts: 0,
      type: '',
      actor: '',
      sessionId: null,
      payloadCommit: Buffer.alloc(0),
      prevHash: line.bytes('prevHash', HEX32, '64 hex digits'),
      entryHash: line.bytes('entryHash', HEX32, '64 hex digits'),
      payload: null,
      salt: null,
      elided: true,
    };
  }
  const payload = value.payload;
  if (payload !== null && (typeof payload !== 'object' || Array.isArray(payload))) throw new LineError(lineNumber, 'field "payload" must be an object or null');
  const disclosed = value.disclosed;
  if (disclosed !== undefined) {
    if (disclosed === null || typeof disclosed !== 'object' || Array.isArray(disclosed)) throw new LineError(lineNumber, 'field "disclosed" must be an object');
    if (payload !== null) throw new LineError(lineNumber, 'field "disclosed" belongs to an entry whose payload is withheld (payload null)');
  }
  let payloadText: string | null = null;
  if (payload !== null) {
    try {
      payloadText = canonicalJson(payload);
    } catch (error) {
      throw new LineError(lineNumber, `field "payload" is not plain JSON (${(error as Error).message})`);
    }
  }
  return {
    seq: line.int('seq'),
    ts: line.int('ts'),
    type: line.string('type'),
    actor: line.string('actor'),
    sessionId: line.nullableString('sessionId'),
    payloadCommit: line.bytes('payloadCommit', HEX32, '64 hex digits'),
    prevHash: line.bytes('prevHash', HEX32, '64 hex digits'),
    entryHash: line.bytes('entryHash', HEX32, '64 hex digits'),
    payload: payloadText,
    salt: payload === null ? null : line.bytes('salt', HEX16, '32 hex digits (or null with a null payload)'),
  };
}

/** Refuses, with a useful message, files that are plainly something else (a database, a binary). */
function sniff(file: string): void {
  let size: number;
  try {
    size = statSync(file).size;
  } catch (error) {
    throw new LedgerFileError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
  }
  if (size === 0) throw new LedgerFileError(`${file} is empty: it is not a ledger export`);
  const head = Buffer.alloc(Math.min(size, 64));
  const fd = openSync(file, 'r');
  try {
    readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  if (head.subarray(0, 16).toString('latin1') === 'SQLite format 3\0') {
    throw new LedgerFileError(`${file} is a SQLite database, not a ledger export: verify a home's ledger with \`omni ledger verify --home DIR\``);
  }
  if (head[0] !== 0x7b /* { */) throw new LedgerFileError(`${file} is not a ledger export (it does not start with a JSON header line)`);
}

/**
 * Verifies an export offline: the same checks as the live ledger (chain, commitments of every disclosed payload,
 * checkpoints and their signatures against `publicKey` if pinned), plus that the file is whole (its end line, the
 * header's size). Bad files never throw past here except as LedgerFileError, for a file that is not an export at all.
 */
export async function verifyExportFile(file: string, publicKey: Buffer | null, remember: number[] = []): Promise<ExportCheck> {
  sniff(file);
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  const wanted = new Set(remember);
  const remembered = new Map<number, string>();
  let header: ExportHeader | undefined;
  const checkpoints: Checkpoint[] = [];
  let verifier: LedgerVerifier | undefined;
  let verdict: LedgerVerdict | undefined;
  let end: ParsedEnd | undefined;
  let entries = 0;
  /** Entries shown with fields withheld: their `disclosed` part is not covered by the chain. */
  let partlyShown = 0;
  let firstHash: string | undefined;
  let lineNumber = 0;
  const fail = (reason: string): LedgerVerdict => ({ intact: false, size: verifier?.checked ?? 0, firstBadSeq: (verifier?.checked ?? 0) + 1, reason });
  try {
    for await (const text of lines) {
      lineNumber++;
      if (lineNumber === 1) {
        header = parseHeader(text, file);
        continue;
      }
      if (text.trim() === '') continue;
      if (end) {
        verdict = fail(`line ${lineNumber}: there is more after the end line`);
        break;
      }
      let value: Record<string, unknown>;
      try {
        value = parseLine(text, lineNumber);
        if ('checkpoint' in value) {
          if (verifier) throw new LineError(lineNumber, 'a checkpoint after the entries (checkpoints come first)');
          checkpoints.push(parseCheckpoint(value, lineNumber));
          continue;
        }
        if ('end' in value) {
          end = parseEnd(value, lineNumber);
          continue;
        }
        verifier ??= new LedgerVerifier(checkpoints, { publicKey, source: publicKey ? 'key-file' : null });
        const entry = parseEntry(value, lineNumber);
        entries++;
        if (value.disclosed !== undefined) partlyShown++;
        if (entry.seq === 1) firstHash = entry.entryHash.toString('hex');
        if (wanted.has(entry.seq)) remembered.set(entry.seq, entry.entryHash.toString('hex'));
        const bad = verifier.push(entry);
        if (bad) {
          verdict = bad;
          break;
        }
      } catch (error) {
        if (!(error instanceof LineError)) throw error;
        verdict = fail(error.message);
        break;
      }
    }
  } finally {
    lines.close();
  }
  if (!header) throw new LedgerFileError(`${file} is not a ledger export: it has no header line`);
  verifier ??= new LedgerVerifier(checkpoints, { publicKey, source: publicKey ? 'key-file' : null });
  if (!verdict) {
    if (!end) verdict = fail(`the file ends early, after line ${lineNumber} (no end line): it was cut short`);
    else if (end.entries !== entries) verdict = fail(`the end line says ${end.entries} entries, but the file has ${entries}`);
    else verdict = verifier.finish();
  }
  if (verdict.intact) verdict = checkHeader(verdict, header, firstHash);
  if (verdict.intact && end) verdict = checkSignedEnd(verdict, header, end, verifier, publicKey !== null);
  if (verdict.intact && partlyShown > 0) {
    const note = `${partlyShown} ${partlyShown === 1 ? 'entry shows its payload' : 'entries show their payloads'} with fields withheld ("disclosed"): those parts are shown as exported, not proven by the chain`;
    verdict = { ...verdict, notes: [...verdict.notes, note] };
  }
  return { header, verdict, remembered };
}

interface ParsedEnd {
  entries: number;
  /** The signed part; absent in exports made before end lines were signed. */
  size?: number;
  headHash?: string;
  signature: Buffer | null;
}

function parseEnd(value: Record<string, unknown>, lineNumber: number): ParsedEnd {
  const raw = value.end;
  if (raw === null || typeof raw !== 'object') throw new LineError(lineNumber, 'the end line must say how many entries there are');
  const line = new LineReader(lineNumber, raw as Record<string, unknown>);
  const fields = raw as Record<string, unknown>;
  if (!Number.isSafeInteger(fields.entries)) throw new LineError(lineNumber, 'the end line must say how many entries there are');
  return {
    entries: fields.entries as number,
    ...(fields.size !== undefined ? { size: line.int('size') } : {}),
    ...(fields.headHash !== undefined ? { headHash: line.bytes('headHash', HEX32, '64 hex digits').toString('hex') } : {}),
    signature: fields.signature === undefined || fields.signature === null ? null : line.bytes('signature', HEX64, '128 hex digits or null'),
  };
}

/** The header must describe the entries the file holds: their number, the last one's hash, the first one's. */
function checkHeader(verdict: LedgerVerdict & { intact: true }, header: ExportHeader, firstHash: string | undefined): LedgerVerdict {
  if (verdict.size !== header.size) {
    return {
      intact: false,
      size: verdict.size,
      firstBadSeq: Math.min(verdict.size, header.size) + 1,
      reason: `the header says the ledger had ${header.size} entries, but the file holds ${verdict.size}`,
    };
  }
  if (verdict.headHash !== header.headHash) return { intact: false, size: verdict.size - 1, firstBadSeq: verdict.size, reason: `the header's head hash is not the hash of the last entry` };
  if (firstHash !== undefined && firstHash !== header.ledgerId) {
    return { intact: false, size: 0, firstBadSeq: 1, reason: `the header names ledger ${header.ledgerId.slice(0, 16)}…, but entry 1 is of ledger ${firstHash.slice(0, 16)}…` };
  }
  return verdict;
}

/**
 * The end line's signature covers the export's size and head by the ledger's key, so the last entry is vouched for
 * even past the newest checkpoint. With a pinned key (--key) the export must carry a checkpoint signed by it and a
 * signed end: otherwise entries could have been cut from, or added to, its end. Without one, a missing signature
 * leaves the tail unvouched (said in a note), and one that does not verify means the end was tampered with.
 */
function checkSignedEnd(verdict: LedgerVerdict & { intact: true }, header: ExportHeader, end: ParsedEnd, verifier: LedgerVerifier, pinned: boolean): LedgerVerdict {
  const newest = verifier.checkpointsVerified.newestVerified;
  const key = verifier.checkpointsVerified.verifiedKey;
  const notCovered = (why: string): LedgerVerdict => ({
    intact: false,
    size: newest?.size ?? 0,
    firstBadSeq: (newest?.size ?? 0) + 1,
    reason: `the export's last entry (seq ${header.size}) is not covered by a signature of the pinned key: ${why}; entries after seq ${newest?.size ?? 0} could have been cut or added`,
  });
  if (!newest || !key) {
    return pinned ? notCovered('the export carries no checkpoint signed by it') : verdict;
  }
  if (end.signature === null || end.size === undefined || end.headHash === undefined) {
    if (pinned && newest.size !== header.size) return notCovered('its end line is not signed');
    return verdict;
  }
  if (end.size !== header.size || end.headHash !== header.headHash) {
    return { intact: false, size: Math.min(end.size, header.size), firstBadSeq: Math.min(end.size, header.size) + 1, reason: `the end line's size and head (${end.size}, ${end.headHash.slice(0, 16)}…) are not the header's (${header.size}, ${header.headHash.slice(0, 16)}…)` };
  }
  const message = exportEndMessage(Buffer.from(header.ledgerId, 'hex'), header.size, Buffer.from(header.headHash, 'hex'), newest.signature);
  if (!exportEndSignatureValid(message, end.signature, key)) {
    return { intact: false, size: newest.size, firstBadSeq: newest.size + 1, reason: `the end line's signature does not verify with the ledger's key: the export's end (its size or last entries) was changed after it was signed` };
  }
  const uncovered = `entries ${newest.size + 1}-${verdict.size} are not yet covered by a signed checkpoint`;
  const notes = verdict.notes.filter((note) => note !== uncovered);
  if (newest.size < header.size) notes.push(`entries ${newest.size + 1}-${header.size} are covered by the export's signed end line`);
  return { ...verdict, notes };
}
