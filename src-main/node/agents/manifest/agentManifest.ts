import type { Capability, OAuthScope } from './capabilities';

/** A manifest that passed validation, with units normalised (§1, schema 0.1). */
export interface AgentManifest {
  schemaVersion: string;
  name: string;
  /** Semver. */
  version: string;
  /** As written: relative to the agent folder, forward slashes. */
  entry: string;
  /** The entry's absolute, symlink-resolved path, inside the agent folder. */
  entryPath: string;
  sandbox: 'wasm' | 'native';
  capabilities: Capability[];
  oauthScopes: OAuthScope[];
  resources: { cpuMillicores: number; memBytes: number };
  /** Known and unknown hints alike (unknown ones were warned about); the UI ignores what it does not know. */
  uiHints: string[];
  /** Optional `description`: what the agent is for (null when absent). */
  description: string | null;
  /** Optional `ui.example_prompt`: a prompt that shows what to ask the agent (null when absent). */
  examplePrompt: string | null;
}
