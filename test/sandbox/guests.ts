import { openDatabase } from '../../src-main/node/store/database';
import { AgentStore } from '../../src-main/node/sandbox/wasm/agentStore';
import { join } from 'node:path';

interface Wabt {
  parseWat(name: string, text: string): { toBinary(options: object): { buffer: Uint8Array }; destroy(): void };
}
let wabt: Promise<Wabt> | null = null;

/** Compiles hand-written WAT with the wabt package. */
export async function wat(text: string): Promise<Uint8Array> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  wabt ??= (require('wabt') as () => Promise<Wabt>)();
  const parsed = (await wabt).parseWat('guest.wat', text);
  try {
    return new Uint8Array(parsed.toBinary({}).buffer);
  } finally {
    parsed.destroy();
  }
}

/** A string as a WAT data literal: every byte escaped, so JSON's quotes and backslashes need no care. */
function dataLiteral(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((b) => `\\${b.toString(16).padStart(2, '0')}`).join('');
}

const allocAndLog = (heapStart = 65536) => `
  (global $heap (mut i32) (i32.const ${heapStart}))
  (func (export "omni_alloc") (param $len i32) (result i32)
    (local $p i32)
    (local.set $p (global.get $heap))
    (global.set $heap (i32.add (global.get $heap) (local.get $len)))
    (block $ok
      (loop $more
        (br_if $ok (i32.le_u (global.get $heap) (i32.shl (memory.size) (i32.const 16))))
        (if (i32.eq (memory.grow (i32.const 1)) (i32.const -1)) (then unreachable))
        (br $more)))
    (local.get $p))
  ;; Writes a response (packed ptr << 32 | len) to stdout, which the host hears as one log line.
  (func $log (param $packed i64)
    (i32.store (i32.const 0) (i32.wrap_i64 (i64.shr_u (local.get $packed) (i64.const 32))))
    (i32.store (i32.const 4) (i32.wrap_i64 (local.get $packed)))
    (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8))))
`;

/**
 * A guest whose omni_invoke makes `calls` in order and writes each response to stdout (so the test reads exactly
 * what the guest got back). Imports only the omni functions it calls.
 */
export function callingGuest(calls: { fn: string; req: unknown }[], options: { memory?: string; prelude?: string } = {}): string {
  const fns = [...new Set(calls.map((c) => c.fn))];
  let offset = 1024;
  const data: string[] = [];
  const body: string[] = [];
  for (const call of calls) {
    const bytes = Buffer.byteLength(JSON.stringify(call.req));
    data.push(`(data (i32.const ${offset}) "${dataLiteral(JSON.stringify(call.req))}")`);
    body.push(`(call $log (call $${call.fn} (i32.const ${offset}) (i32.const ${bytes})))`);
    offset += bytes;
  }
  // Requests live from byte 1024; the guest's allocations start on the page after them.
  const heapStart = Math.ceil(offset / 65536) * 65536;
  const pages = heapStart / 65536 + 1;
  return `(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  ${fns.map((fn) => `(import "omni" "${fn}" (func $${fn} (param i32 i32) (result i64)))`).join('\n  ')}
  ${options.memory ?? `(memory (export "memory") ${pages})`}
  ${data.join('\n  ')}
  ${allocAndLog(heapStart)}
  ${options.prelude ?? ''}
  (func (export "omni_invoke") (param i32 i32)
    ${body.join('\n    ')}))`;
}

/** A guest with the ABI's exports whose omni_invoke is `invoke` (WAT instructions). */
export function guestWith(invoke: string, extra = ''): string {
  return `(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  ${extra}
  (memory (export "memory") 2)
  ${allocAndLog()}
  (func (export "omni_invoke") (param i32 i32)
    ${invoke}))`;
}

export type GuestResponse = { ok: true; [key: string]: unknown } | { ok: false; error: { code: string; message: string; hint: string } };

/** The app database in `dir`, migrated as the app does, and the agent store on it. */
export function testStore(dir: string): AgentStore {
  return new AgentStore(openDatabase(join(dir, 'sessions.db')));
}
