/**
 * The ledger export file: JSON Lines, UTF-8, one object per line, in this order:
 *
 *   {"format":"omniscient-shell/ledger-export","version":1, ...ExportHeader}
 *   {"checkpoint":{size, ts, headHash, prevSignature, signature, publicKey}}      every signed checkpoint, oldest first
 *   {"seq":1,"ts":…,"type":…,"actor":…,"sessionId":…,"payloadCommit":…,"prevHash":…,"entryHash":…,
 *    "payload":{…}|null,"salt":…|null,"redacted"?:"why","disclosed"?:{…}}       every entry, in seq order
 *   {"seq":7,"prevHash":…,"entryHash":…,"elided":true}                           an entry of another session (--session)
 *   {"end":{"entries":N,"checkpoints":K,"size":S,"headHash":…,"signature":…|null}} proves the file was not cut short
 *
 * The end line's signature (checkpoint.ts, exportEndMessage) covers the header's size and head hash by the ledger's
 * key, so the export's last entry is vouched for even when the ledger had grown past its newest checkpoint. It is
 * null when the exporter had no key, or the ledger did not verify against its keychain record (nothing is signed
 * over a ledger that does not verify); such an export fails `verify --key`.
 *
 * Hashes, salts and signatures are lowercase hex; public keys are base64 SPKI DER. A payload is the JSON object the
 * commitment was made over (its canonical JSON is recomputed to check it); a redacted entry has payload and salt
 * null and keeps its commitment, so the chain still verifies without disclosing it. An entry whose fields were
 * withheld (`redacted` "field:<paths>") also has `disclosed`: its payload without those fields. The commitment is over
 * the whole payload, so it cannot prove `disclosed`; a verifier checks its form and says how many entries have one.
 */
export const EXPORT_FORMAT = 'omniscient-shell/ledger-export';
export const EXPORT_VERSION = 1;

export interface ExportHeader {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  /** Hex of entry 1's hash: which ledger this is. */
  ledgerId: string;
  exportedAt: number;
  /** Entries in the ledger when it was exported, and the hash of the last. */
  size: number;
  headHash: string;
  /** Set when only one session's entries are disclosed (the others are elided). */
  session: string | null;
  redaction: { all: boolean; types: string[]; fields: string[] };
}

export interface ExportCheckpointLine {
  checkpoint: { size: number; ts: number; headHash: string; prevSignature: string | null; signature: string; publicKey: string };
}

export interface ExportEntryLine {
  seq: number;
  ts: number;
  type: string;
  actor: string;
  sessionId: string | null;
  payloadCommit: string;
  prevHash: string;
  entryHash: string;
  payload: Record<string, unknown> | null;
  salt: string | null;
  /** Why the payload is not disclosed: "all", "type", or "field:<path>[,<path>…]". */
  redacted?: string;
  /** With fields withheld: the rest of the payload (shown as exported; the commitment cannot prove it). */
  disclosed?: Record<string, unknown>;
}

export interface ExportElidedLine {
  seq: number;
  prevHash: string;
  entryHash: string;
  elided: true;
}

export interface ExportEndLine {
  end: { entries: number; checkpoints: number; size: number; headHash: string; signature: string | null };
}
