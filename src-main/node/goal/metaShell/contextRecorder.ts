import { realpathSync } from 'node:fs';
import type { Ledger } from '../../ledger/ledger';
import type { Database } from '../../store/database';
import { MetaState } from './metaState';

/** What noteContextChange found: the hash it had recorded before and the one now (null: no context.md). */
export interface ContextChange {
  changed: boolean;
  oldSha256: string | null;
  newSha256: string | null;
  /** The ledger entry's seq, when one was appended. */
  seq: number | null;
}

/**
 * `.meta/context.md` is the user's (agents cannot write it: the WASM host calls refuse .meta, the native sandbox binds
 * it read-only). The host records its SHA-256 per workspace (table meta_context_hashes) and writes a ledger entry
 * whenever it differs from the last one recorded, so every edit of the source of truth is in the audit trail:
 * `meta.context_recorded` the first time a workspace's context is seen, `meta.context_edit` with the old and new hash
 * after that (new null: the file was removed). The hash and its entry commit in one transaction.
 */
export class ContextRecorder {
  constructor(
    private readonly db: Database,
    private readonly ledger: Ledger,
    private readonly now: () => number = Date.now,
  ) {}

  /** Compares context.md with the last recorded hash and ledgers a difference. Call it before each run and when the app sees the file change. */
  noteContextChange(workspace: string, sessionId: string | null = null): ContextChange {
    const root = realpathSync(workspace);
    const context = new MetaState(root).readContext();
    const newSha256 = context?.sha256 ?? null;
    return this.ledger.transact(() => {
      const last = this.db.prepare<[string], { sha256: string | null }>('SELECT sha256 FROM meta_context_hashes WHERE workspace = ?').get(root);
      if (last && last.sha256 === newSha256) return { changed: false, oldSha256: newSha256, newSha256, seq: null };
      if (!last && newSha256 === null) return { changed: false, oldSha256: null, newSha256: null, seq: null };
      this.db
        .prepare('INSERT INTO meta_context_hashes (workspace, sha256, bytes, recorded_at) VALUES (?, ?, ?, ?) ON CONFLICT (workspace) DO UPDATE SET sha256 = excluded.sha256, bytes = excluded.bytes, recorded_at = excluded.recorded_at')
        .run(root, newSha256, context?.bytes ?? null, this.now());
      const oldSha256 = last?.sha256 ?? null;
      const entry = this.ledger.append({
        type: last ? 'meta.context_edit' : 'meta.context_recorded',
        actor: 'user',
        sessionId,
        payload: { workspace: root, path: '.meta/context.md', old_sha256: oldSha256, new_sha256: newSha256, bytes: context?.bytes ?? null },
      });
      return { changed: true, oldSha256, newSha256, seq: entry.seq };
    });
  }
}
