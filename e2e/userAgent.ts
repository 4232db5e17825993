import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The manifest fields a test agent varies; the rest are those of a valid schema 0.1 manifest. */
export interface UserAgentManifest {
  entry: string;
  sandbox: 'native' | 'wasm';
  capabilities: string[];
  oauthScopes: string[];
  mem: string;
}

/**
 * Installs an agent in the app home's agent folder (the user's own agents): `<home>/agents/<name>` with its
 * manifest.toml and `files` (name → text). Returns the folder.
 */
export function installUserAgent(home: string, name: string, manifest: UserAgentManifest, files: Record<string, string>): string {
  const folder = join(home, 'agents', name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, 'manifest.toml'),
    [
      'schema_version = "0.1"',
      `name = "${name}"`,
      'version = "0.1.0"',
      `entry = "${manifest.entry}"`,
      `sandbox = "${manifest.sandbox}"`,
      `capabilities = ${JSON.stringify(manifest.capabilities)}`,
      `oauth_scopes = ${JSON.stringify(manifest.oauthScopes)}`,
      'resources.cpu = "500m"',
      `resources.mem = "${manifest.mem}"`,
      'ui.hints = ["streaming"]',
      '',
    ].join('\n'),
  );
  for (const [file, text] of Object.entries(files)) writeFileSync(join(folder, file), text);
  return folder;
}
