import type { Database } from '../../store/database';
import { HostCallError } from './hostCallError';

const MAX_KEY_CHARS = 256;
const MAX_VALUE_BYTES = 1024 * 1024;

function checkKey(key: unknown): string {
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_CHARS) {
    throw new HostCallError('bad_request', `"key" must be a string of 1 to ${MAX_KEY_CHARS} characters`, 'send {"key": "name"}');
  }
  return key;
}

function checkValue(value: unknown): string | null {
  if (value === null) return null;
  if (typeof value !== 'string') throw new HostCallError('bad_request', '"value" must be a string, or null to delete the key', 'store JSON as a string');
  if (Buffer.byteLength(value) > MAX_VALUE_BYTES) {
    throw new HostCallError('too_large', `a value may hold ${MAX_VALUE_BYTES} bytes, this one has ${Buffer.byteLength(value)}`, 'store less, or split it over keys');
  }
  return value;
}

/** Per-agent KV (the `memory` capability) and the session scratchpad, in the app database (schema step 7, store/migrations.ts). */
export class AgentStore {
  constructor(
    private readonly db: Database,
    private readonly now: () => number = Date.now,
  ) {}

  kvGet(agentId: string, key: unknown): string | null {
    const row = this.db.prepare<[string, string], { value: string }>('SELECT value FROM agent_kv WHERE agent_id = ? AND key = ?').get(agentId, checkKey(key));
    return row?.value ?? null;
  }

  kvSet(agentId: string, key: unknown, value: unknown): void {
    const k = checkKey(key);
    const v = checkValue(value);
    if (v === null) this.db.prepare('DELETE FROM agent_kv WHERE agent_id = ? AND key = ?').run(agentId, k);
    else {
      this.db
        .prepare('INSERT INTO agent_kv (agent_id, key, value, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (agent_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at')
        .run(agentId, k, v, this.now());
    }
  }

  scratchGet(sessionId: string, key: unknown): string | null {
    const row = this.db.prepare<[string, string], { value: string }>('SELECT value FROM session_scratchpad WHERE session_id = ? AND key = ?').get(sessionId, checkKey(key));
    return row?.value ?? null;
  }

  scratchSet(sessionId: string, agentId: string, key: unknown, value: unknown): void {
    const k = checkKey(key);
    const v = checkValue(value);
    if (v === null) this.db.prepare('DELETE FROM session_scratchpad WHERE session_id = ? AND key = ?').run(sessionId, k);
    else {
      this.db
        .prepare(
          'INSERT INTO session_scratchpad (session_id, key, value, updated_by, updated_at) VALUES (?, ?, ?, ?, ?) ' +
            'ON CONFLICT (session_id, key) DO UPDATE SET value = excluded.value, updated_by = excluded.updated_by, updated_at = excluded.updated_at',
        )
        .run(sessionId, k, v, agentId, this.now());
    }
  }
}
