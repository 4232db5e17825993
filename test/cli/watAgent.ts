// A WASM agent folder made from WebAssembly text, for the CLI tests that need an agent of a given behaviour.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Writes `folder/agent.wasm` (compiled from `wat`) and a manifest naming it `name`, with no capabilities. */
export async function writeWatAgent(folder: string, name: string, wat: string): Promise<void> {
  const wabt = await (await import('wabt')).default();
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'agent.wasm'), Buffer.from(wabt.parseWat(`${name}.wat`, wat).toBinary({}).buffer));
  writeFileSync(
    join(folder, 'manifest.toml'),
    `schema_version = "0.1"\nname = "${name}"\nversion = "0.1.0"\nentry = "agent.wasm"\nsandbox = "wasm"\ncapabilities = []\noauth_scopes = []\nresources.cpu = "1"\nresources.mem = "1Mi"\nui.hints = ["log"]\n`,
  );
}
