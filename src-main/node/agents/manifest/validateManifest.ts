import type { AgentManifest } from './agentManifest';
import { closestName, isKnownCapability, KNOWN_CAPABILITIES, parseOAuthCapability, parseOAuthScope, type Capability, type OAuthScope } from './capabilities';
import { checkEntry } from './entryFile';
import { describeFound } from './manifestIssue';
import type { ManifestIssues } from './manifestIssues';
import { formatMemory, parseCpu, parseMemory } from './resourceQuantities';
import { CURRENT_SCHEMA_VERSION } from './schemaVersions';
import { isSemver, suggestSemver } from './semver';
import { isKnownUiHint, KNOWN_UI_HINTS } from './uiHints';

type Table = Record<string, unknown>;

export interface ManifestCheckOptions {
  /** `omni agent build`: the entry may not exist yet (the build writes it); it must still be a path inside the folder. */
  entryToBeBuilt?: boolean;
}

/** The keys of schema 0.1, per table; anything else is warned about (a typo would otherwise be silently ignored). */
const KNOWN_KEYS: Record<string, readonly string[]> = {
  '': ['schema_version', 'name', 'version', 'entry', 'sandbox', 'capabilities', 'oauth_scopes', 'resources', 'ui', 'description'],
  resources: ['cpu', 'mem'],
  ui: ['hints', 'example_prompt'],
};

const MAX_NAME_LENGTH = 64;

/** smol-toml's tables are null-prototype objects; its dates are TomlDate (a Date). */
export const isTable = (value: unknown): value is Table => typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

/**
 * Validates a parsed schema-0.1 manifest (its `schema_version` already checked) against every §1 field, reporting
 * every problem rather than the first. Returns the typed manifest when there were no errors.
 */
export function validateManifest(table: Table, folder: string, issues: ManifestIssues, options: ManifestCheckOptions = {}): AgentManifest | null {
  warnUnknownKeys(table, issues);
  const name = checkName(table.name, issues);
  const version = checkVersion(table.version, issues);
  const sandbox = checkSandbox(table.sandbox, issues);
  const entryPath = typeof table.entry === 'string' ? checkEntry(table.entry, folder, sandbox, issues, options.entryToBeBuilt) : (issues.wrongType('entry', 'a string path relative to the agent folder', table.entry, 'add e.g. entry = "agent.wasm"'), null);
  const oauthScopes = checkOAuthScopes(table.oauth_scopes, issues);
  const capabilities = checkCapabilities(table.capabilities, oauthScopes, issues);
  const resources = checkResources(table.resources, sandbox, issues);
  const uiHints = checkUiHints(table.ui, issues);
  const description = optionalText(table.description, 'description', MAX_DESCRIPTION_LENGTH, issues);
  const examplePrompt = optionalText(isTable(table.ui) ? table.ui.example_prompt : undefined, 'ui.example_prompt', MAX_EXAMPLE_LENGTH, issues);
  if (issues.hasErrors || !name || !version || !sandbox || !entryPath || !oauthScopes || !capabilities || !resources || !uiHints) return null;
  return {
    schemaVersion: CURRENT_SCHEMA_VERSION,
    name,
    version,
    entry: table.entry as string,
    entryPath,
    sandbox,
    capabilities,
    oauthScopes: oauthScopes.map((scope) => scope.parsed),
    resources,
    uiHints,
    description,
    examplePrompt,
  };
}

const MAX_DESCRIPTION_LENGTH = 500;
const MAX_EXAMPLE_LENGTH = 1000;

/**
 * `description` and `ui.example_prompt`: optional keys this shell adds beside §1's (shown in the launcher). Text
 * that is wrong is only a warning and is left out: an agent must not fail to load over its blurb.
 */
function optionalText(value: unknown, key: string, max: number, issues: ManifestIssues): string | null {
  if (value === undefined) return null;
  if (typeof value !== 'string') {
    issues.warning('wrong_type', key, 'a string', describeFound(value), `write ${key} = "…" or remove it; it is not shown`);
    return null;
  }
  const text = value.trim();
  if (text.length === 0) return null;
  if (text.length > max) {
    issues.warning('invalid_value', key, `at most ${max} characters`, `${text.length} characters`, 'shorten it; the first part is shown');
    return text.slice(0, max);
  }
  return text;
}

function warnUnknownKeys(table: Table, issues: ManifestIssues): void {
  for (const [prefix, known] of Object.entries(KNOWN_KEYS)) {
    const scope = prefix === '' ? table : table[prefix];
    if (!isTable(scope)) continue;
    for (const key of Object.keys(scope)) {
      if (known.includes(key)) continue;
      const dotted = prefix === '' ? key : `${prefix}.${key}`;
      const near = closestName(key, known);
      issues.warning(
        'unknown_key',
        dotted,
        `one of the schema ${CURRENT_SCHEMA_VERSION} keys${prefix ? ` of [${prefix}]` : ''} (${known.join(', ')})`,
        `the unknown key "${dotted}"`,
        near ? `did you mean "${prefix ? `${prefix}.` : ''}${near}"? Otherwise remove it: it is ignored` : 'remove it: it is ignored',
      );
    }
  }
}

function checkName(value: unknown, issues: ManifestIssues): string | null {
  const expected = `a name of 1 to ${MAX_NAME_LENGTH} characters (letters, digits, spaces, . _ -)`;
  if (typeof value !== 'string') {
    issues.wrongType('name', expected, value, 'add e.g. name = "Workspace Search"');
    return null;
  }
  if (value.trim() === '' || value.length > MAX_NAME_LENGTH || value !== value.trim() || !/^[\p{L}\p{N}][\p{L}\p{N} ._-]*$/u.test(value)) {
    const cleaned = value.trim().replace(/[^\p{L}\p{N} ._-]/gu, '').slice(0, MAX_NAME_LENGTH);
    issues.error('invalid_value', 'name', `${expected}, starting with a letter or digit`, describeFound(value), cleaned ? `e.g. name = ${JSON.stringify(cleaned)}` : 'give the agent a short readable name');
    return null;
  }
  return value;
}

function checkVersion(value: unknown, issues: ManifestIssues): string | null {
  const expected = 'a semantic version string MAJOR.MINOR.PATCH (e.g. "0.1.0")';
  if (typeof value === 'number') {
    const suggestion = suggestSemver(String(value));
    issues.error('wrong_type', 'version', expected, describeFound(value), `quote it and give all three parts: version = "${suggestion ?? '0.1.0'}"`);
    return null;
  }
  if (typeof value !== 'string') {
    issues.wrongType('version', expected, value, 'add e.g. version = "0.1.0"');
    return null;
  }
  if (!isSemver(value)) {
    const suggestion = suggestSemver(value);
    issues.error('invalid_value', 'version', expected, describeFound(value), suggestion ? `write version = "${suggestion}"` : 'use three dot-separated numbers, e.g. version = "1.0.0"');
    return null;
  }
  return value;
}

function checkSandbox(value: unknown, issues: ManifestIssues): 'wasm' | 'native' | null {
  const expected = '"wasm" or "native"';
  if (value === 'wasm' || value === 'native') return value;
  if (typeof value === 'string') {
    const lower = value.trim().toLowerCase();
    const near = lower === 'wasi' || lower === 'webassembly' ? 'wasm' : closestName(lower, ['wasm', 'native']);
    const fix = near ? `write sandbox = "${near}"` : 'use sandbox = "wasm" (preferred) or "native" (asks the user before running)';
    issues.error('invalid_value', 'sandbox', expected, describeFound(value), fix);
  } else {
    issues.wrongType('sandbox', expected, value, 'add sandbox = "wasm" (preferred) or "native"');
  }
  return null;
}

interface CheckedScope {
  text: string;
  parsed: OAuthScope;
}

function checkOAuthScopes(value: unknown, issues: ManifestIssues): CheckedScope[] | null {
  if (!Array.isArray(value)) {
    issues.wrongType('oauth_scopes', 'an array of "provider:scope" strings (empty when the agent uses no OAuth)', value, 'add oauth_scopes = [] or list the scopes, e.g. ["github:repo"]');
    return null;
  }
  const scopes: CheckedScope[] = [];
  let ok = true;
  value.forEach((item: unknown, index) => {
    const key = `oauth_scopes[${index}]`;
    const parsed = typeof item === 'string' ? parseOAuthScope(item) : null;
    if (!parsed) {
      ok = false;
      const fix = typeof item === 'string' && /^[a-z][a-z0-9_-]*\.\S+$/.test(item) ? `write "${item.replace('.', ':')}" (provider, colon, scope)` : 'write it as provider:scope, e.g. "github:repo" or "google:drive.readonly"';
      issues.error('invalid_value', key, 'a "provider:scope" string with a lower-case provider', describeFound(item), fix);
      return;
    }
    if (scopes.some((scope) => scope.text === item)) {
      issues.warning('duplicate_value', key, 'each scope once', `"${item as string}" again`, 'remove the repeat');
      return;
    }
    scopes.push({ text: item as string, parsed });
  });
  return ok ? scopes : null;
}

function checkCapabilities(value: unknown, scopes: CheckedScope[] | null, issues: ManifestIssues): Capability[] | null {
  const known = KNOWN_CAPABILITIES.join(', ');
  if (!Array.isArray(value)) {
    issues.wrongType('capabilities', `an array of capability names (${known}, oauth:<provider>.<scope>)`, value, 'add capabilities = [] or the ones the agent needs, e.g. ["files.read"]');
    return null;
  }
  const capabilities: Capability[] = [];
  let ok = true;
  value.forEach((item: unknown, index) => {
    const key = `capabilities[${index}]`;
    if (typeof item !== 'string') {
      ok = false;
      issues.wrongType(key, 'a capability name string', item, `quote it, e.g. "files.read"`);
      return;
    }
    if (capabilities.includes(item as Capability)) {
      issues.warning('duplicate_value', key, 'each capability once', `"${item}" again`, 'remove the repeat');
      return;
    }
    if (isKnownCapability(item)) {
      capabilities.push(item);
      return;
    }
    if (item.startsWith('oauth:')) {
      const oauth = parseOAuthCapability(item);
      if (!oauth) {
        ok = false;
        issues.error('invalid_value', key, 'oauth:<provider>.<scope>, e.g. "oauth:github.repo"', describeFound(item), 'write the provider in lower case, a dot, then the scope');
        return;
      }
      if (scopes && !scopes.some((scope) => scope.parsed.provider === oauth.provider && scope.parsed.scope === oauth.scope)) {
        ok = false;
        issues.error(
          'undeclared_oauth_scope',
          key,
          `its scope "${oauth.provider}:${oauth.scope}" listed in oauth_scopes`,
          `oauth_scopes without it`,
          `add "${oauth.provider}:${oauth.scope}" to oauth_scopes`,
        );
        return;
      }
      capabilities.push(item as Capability);
      return;
    }
    ok = false;
    const near = closestName(item, [...KNOWN_CAPABILITIES, 'oauth:']);
    issues.error('invalid_value', key, `a known capability (${known}, or oauth:<provider>.<scope>)`, `the unknown capability "${item}"`, near && near !== 'oauth:' ? `did you mean "${near}"?` : 'use one of the known names; an agent cannot declare a capability the shell does not enforce');
  });
  return ok ? capabilities : null;
}

function checkResources(value: unknown, sandbox: string | null, issues: ManifestIssues): AgentManifest['resources'] | null {
  if (!isTable(value)) {
    issues.wrongType('resources', 'a [resources] table with cpu and mem', value, 'add resources.cpu = "500m" and resources.mem = "256Mi"');
    return null;
  }
  let cpuMillicores: number | null = null;
  let memBytes: number | null = null;
  const { cpu, mem } = value;
  if (typeof cpu !== 'string' && typeof cpu !== 'number') {
    issues.wrongType('resources.cpu', 'a CPU quantity such as "500m" (millicores) or "1" (cores)', cpu, 'add resources.cpu = "500m"');
  } else {
    const parsed = parseCpu(cpu);
    if (parsed.ok) cpuMillicores = parsed.value;
    else issues.error('invalid_value', 'resources.cpu', 'a CPU quantity such as "500m" (millicores) or "1" / "0.5" (cores)', `${describeFound(cpu)}: ${parsed.problem}`, `write resources.cpu = ${parsed.suggestion ?? '"500m"'}`);
  }
  if (typeof mem !== 'string' && typeof mem !== 'number') {
    issues.wrongType('resources.mem', 'a memory quantity such as "512Mi", "1Gi" or a number of bytes', mem, 'add resources.mem = "256Mi"');
  } else {
    const parsed = parseMemory(mem);
    if (parsed.ok) memBytes = parsed.value;
    else issues.error('invalid_value', 'resources.mem', 'a memory quantity such as "512Mi", "1Gi" or a number of bytes', `${describeFound(mem)}: ${parsed.problem}`, `write resources.mem = ${parsed.suggestion ?? '"512Mi"'}`);
  }
  const wasm32Limit = 4 * 2 ** 30;
  if (sandbox === 'wasm' && memBytes !== null && memBytes > wasm32Limit) {
    issues.warning('invalid_value', 'resources.mem', 'at most 4Gi for a wasm agent (what 32-bit WebAssembly can address)', formatMemory(memBytes), 'lower it to "4Gi" or less; the agent gets 4Gi at most');
  }
  return cpuMillicores !== null && memBytes !== null ? { cpuMillicores, memBytes } : null;
}

function checkUiHints(value: unknown, issues: ManifestIssues): string[] | null {
  const expected = `an array of UI hints (${KNOWN_UI_HINTS.join(', ')})`;
  if (value !== undefined && !isTable(value)) {
    issues.wrongType('ui', 'a [ui] table with hints', value, 'write ui.hints = ["streaming"] (or [] for none)');
    return null;
  }
  const hints = value?.hints;
  if (!Array.isArray(hints)) {
    issues.wrongType('ui.hints', expected, hints, 'add ui.hints = ["streaming"] (or [] for none)');
    return null;
  }
  const result: string[] = [];
  let ok = true;
  hints.forEach((hint: unknown, index) => {
    const key = `ui.hints[${index}]`;
    if (typeof hint !== 'string') {
      ok = false;
      issues.wrongType(key, 'a hint name string', hint, 'quote it, e.g. "streaming"');
      return;
    }
    if (result.includes(hint)) {
      issues.warning('duplicate_value', key, 'each hint once', `"${hint}" again`, 'remove the repeat');
      return;
    }
    if (!isKnownUiHint(hint)) {
      const near = closestName(hint, KNOWN_UI_HINTS);
      issues.warning('unknown_hint', key, `a hint this shell knows (${KNOWN_UI_HINTS.join(', ')})`, `"${hint}"`, near ? `did you mean "${near}"? Unknown hints are ignored` : 'unknown hints are ignored; remove it or keep it for newer shells');
    }
    result.push(hint);
  });
  return ok ? result : null;
}
