import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The smallest valid WebAssembly module: magic and version 1, no sections. */
export const EMPTY_WASM = Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);

/** A valid schema 0.1 manifest, one `key = value` per line, in the spec's order. */
const VALID_LINES: [string, string][] = [
  ['schema_version', '"0.1"'],
  ['name', '"Test Agent"'],
  ['version', '"0.1.0"'],
  ['entry', '"agent.wasm"'],
  ['sandbox', '"wasm"'],
  ['capabilities', '["codegen", "files.read"]'],
  ['oauth_scopes', '[]'],
  ['resources.cpu', '"500m"'],
  ['resources.mem', '"64Mi"'],
  ['ui.hints', '["streaming", "diff"]'],
];

/**
 * The valid manifest with some values replaced (the TOML text of the value) or removed (null); `extra` lines go at
 * the end. Line N of the result is VALID_LINES[N-1] while nothing is removed.
 */
export function manifestText(overrides: Record<string, string | null> = {}, extra: string[] = []): string {
  const lines = VALID_LINES.filter(([key]) => overrides[key] !== null).map(([key, value]) => `${key} = ${overrides[key] ?? value}`);
  return [...lines, ...extra].join('\n') + '\n';
}

/** Writes an agent folder `<parent>/<name>` with the manifest text and an entry file (a WASM module unless given). */
export function writeAgent(parent: string, name: string, manifest: string, entry: { path?: string; bytes?: Buffer } = {}): string {
  const folder = join(parent, name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'manifest.toml'), manifest);
  const entryPath = join(folder, entry.path ?? 'agent.wasm');
  mkdirSync(join(entryPath, '..'), { recursive: true });
  writeFileSync(entryPath, entry.bytes ?? EMPTY_WASM);
  return folder;
}

/** A pre-0.1 draft manifest: permissions with the draft's names, integer resources, top-level ui_hints, a comment. */
export const DRAFT_00 = `# written for the 0.0 draft
schema_version = "0.0"
name = "Old Agent"
version = "1.0.0"
entry = "agent.wasm"
sandbox = "wasm"
permissions = ["fs.read", "net", "codegen"]
ui_hints = ["streaming", "log"]

[resources]
cpu_millicores = 250
memory_mb = 128
`;
