import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { HarnessError } from '../harnessError';

/** The Agent SDK release the harness is written and tested against (scripts/install-harness-clis.mjs pins it). */
export const AGENT_SDK_PACKAGE = '@anthropic-ai/claude-agent-sdk';
export const AGENT_SDK_VERSION = '0.3.330';

/** One message of the SDK's stream; only the fields the harness reads are typed, the rest travels as payload. */
export type AgentSdkMessage = { type: string; subtype?: string; session_id?: string; [field: string]: unknown };

/** The slice of the SDK's `query()` the harness uses (the package itself is not a dependency, so no import of its types). */
export type AgentSdkQuery = AsyncIterable<AgentSdkMessage> & { close?: () => void };
export type AgentSdk = {
  version: string;
  dir: string;
  query: (params: { prompt: string; options: Record<string, unknown> }) => AgentSdkQuery;
};

const loaded = new Map<string, Promise<AgentSdk>>();

/**
 * Loads @anthropic-ai/claude-agent-sdk from the folder the host configured (`agentSdkDir`, else OMNI_AGENT_SDK_DIR).
 * It is heavy (a native Claude Code build per platform, ~370 MB), so it is never bundled with the app nor listed in
 * its dependencies; it is imported at run time, by file URL, from wherever it was installed.
 */
export function loadAgentSdk(configuredDir: string | undefined): Promise<AgentSdk> {
  const dir = configuredDir ?? process.env.OMNI_AGENT_SDK_DIR;
  if (dir === undefined || dir.trim() === '') throw missing('no Agent SDK folder is configured (the agentSdkDir option or OMNI_AGENT_SDK_DIR)');
  if (!isAbsolute(dir)) throw missing(`the Agent SDK folder must be an absolute path, not ${JSON.stringify(dir)}`);
  let pending = loaded.get(dir);
  if (!pending) {
    pending = importSdk(dir);
    loaded.set(dir, pending);
    // A failed load is not cached: the user may install the SDK and try again without restarting the host.
    pending.catch(() => loaded.delete(dir));
  }
  return pending;
}

async function importSdk(dir: string): Promise<AgentSdk> {
  const manifestFile = join(dir, 'package.json');
  if (!existsSync(manifestFile)) throw missing(`${dir} holds no package.json`);
  let manifest: { name?: unknown; version?: unknown; main?: unknown; exports?: unknown };
  try {
    manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as typeof manifest;
  } catch {
    throw missing(`${manifestFile} is not valid JSON`);
  }
  if (manifest.name !== AGENT_SDK_PACKAGE) throw missing(`${dir} holds ${JSON.stringify(manifest.name)}, not ${AGENT_SDK_PACKAGE}`);
  const entry = join(dir, entryOf(manifest));
  let module: { query?: unknown };
  try {
    module = (await import(pathToFileURL(entry).href)) as { query?: unknown };
  } catch (error) {
    throw missing(`importing ${entry} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (typeof module.query !== 'function') throw missing(`${entry} exports no query() function (version ${String(manifest.version)})`);
  return { version: String(manifest.version), dir, query: module.query as AgentSdk['query'] };
}

/** The ESM entry point: exports["."] (string, or its "import"/"default" condition), else "main". */
function entryOf(manifest: { main?: unknown; exports?: unknown }): string {
  const root = typeof manifest.exports === 'object' && manifest.exports !== null ? (manifest.exports as Record<string, unknown>)['.'] : manifest.exports;
  if (typeof root === 'string') return root;
  if (typeof root === 'object' && root !== null) {
    const conditions = root as Record<string, unknown>;
    for (const condition of ['import', 'node', 'default']) if (typeof conditions[condition] === 'string') return conditions[condition];
  }
  return typeof manifest.main === 'string' ? manifest.main : 'index.js';
}

function missing(reason: string): HarnessError {
  return new HarnessError(
    'HARNESS_SDK_MISSING',
    `the agent-sdk harness needs ${AGENT_SDK_PACKAGE}, which the app does not bundle: ${reason}. Install it with ` +
      `\`npm install --prefix <folder> ${AGENT_SDK_PACKAGE}@${AGENT_SDK_VERSION}\` (tests: \`node scripts/install-harness-clis.mjs\`) ` +
      `and set OMNI_AGENT_SDK_DIR (or the agentSdkDir option) to <folder>/node_modules/${AGENT_SDK_PACKAGE}.`,
  );
}
