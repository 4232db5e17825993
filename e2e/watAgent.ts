import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface Wabt {
  parseWat(name: string, text: string): { toBinary(options: object): { buffer: Uint8Array }; destroy(): void };
}

/** A string as a WAT data literal, every byte escaped. */
const dataLiteral = (text: string): string => [...Buffer.from(text, 'utf8')].map((b) => `\\${b.toString(16).padStart(2, '0')}`).join('');

/** A WASM agent (as WAT) whose omni_invoke makes `calls` in order and drops their answers: it only asks and acts. */
export function callsInOrder(calls: { fn: string; req: unknown }[]): string {
  let offset = 1024;
  const data: string[] = [];
  const body = calls.map((call) => {
    const json = JSON.stringify(call.req);
    const bytes = Buffer.byteLength(json);
    data.push(`(data (i32.const ${offset}) "${dataLiteral(json)}")`);
    const line = `(drop (call $${call.fn} (i32.const ${offset}) (i32.const ${bytes})))`;
    offset += bytes;
    return line;
  });
  if (offset > 65536) throw new Error('the requests must fit in the first page');
  const fns = [...new Set(calls.map((c) => c.fn))];
  return `(module
  ${fns.map((fn) => `(import "omni" "${fn}" (func $${fn} (param i32 i32) (result i64)))`).join('\n  ')}
  (memory (export "memory") 2)
  ${data.join('\n  ')}
  (global $heap (mut i32) (i32.const 65536))
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
  (func (export "omni_invoke") (param i32 i32)
    ${body.join('\n    ')}))`;
}

/** Compiles `wat` and installs it as the user's agent `name` in the app home, with its manifest. */
export async function installWatAgent(home: string, name: string, capabilities: string[], wat: string): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const wabt = await (require('wabt') as () => Promise<Wabt>)();
  const parsed = wabt.parseWat(`${name}.wat`, wat);
  const binary = parsed.toBinary({}).buffer;
  parsed.destroy();
  const folder = join(home, 'agents', name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'agent.wasm'), binary);
  writeFileSync(
    join(folder, 'manifest.toml'),
    [
      'schema_version = "0.1"',
      `name = "${name}"`,
      'version = "0.1.0"',
      'entry = "agent.wasm"',
      'sandbox = "wasm"',
      `capabilities = ${JSON.stringify(capabilities)}`,
      'oauth_scopes = []',
      'resources.cpu = "250m"',
      'resources.mem = "32Mi"',
      'ui.hints = ["streaming"]',
      '',
    ].join('\n'),
  );
}
