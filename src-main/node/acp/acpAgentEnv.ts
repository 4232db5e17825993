import { join } from 'node:path';
import { isTerminalHostVariable } from '../harness/terminalHostEnv';

/**
 * The environment of an ACP agent process (the adapter and everything it starts). Built from nothing but what the
 * agent needs, so the user's own provider keys and tokens never reach it:
 *
 * - HOME (and the XDG folders, CLAUDE_CONFIG_DIR / CODEX_HOME) is the agent's own config folder under the app home,
 *   `<home>/acp/<agent>/`: whatever the agent keeps (sessions, settings, caches) lands there, never in the user's
 *   ~/.claude or ~/.codex.
 * - The provider's variables are the credential proxy's only: its base URL on 127.0.0.1 and a dummy key bound to a
 *   handle (docs/credentials.md). The user's own `ANTHROPIC_*`, `OPENAI_*`, `GEMINI_*`, … are withheld, and so is
 *   anything else that looks like a credential, wherever it came from.
 * - In the sandbox, IS_SANDBOX=1 (Claude Code refuses to skip permissions as root unless told it is sandboxed; the
 *   sandbox never runs it as root, but says what is true); PATH is the system's plus node's and the adapters' bin
 *   folders.
 */

/** The variables through which an agent finds its provider, per built-in agent id. */
export const PROVIDER_VARIABLES: Readonly<Record<string, { baseUrl: string; apiKey: string }>> = Object.freeze({
  claude: { baseUrl: 'ANTHROPIC_BASE_URL', apiKey: 'ANTHROPIC_API_KEY' },
  codex: { baseUrl: 'OPENAI_BASE_URL', apiKey: 'OPENAI_API_KEY' },
  gemini: { baseUrl: 'GOOGLE_GEMINI_BASE_URL', apiKey: 'GEMINI_API_KEY' },
});

const PROVIDER_PREFIXES = ['ANTHROPIC_', 'OPENAI_', 'AZURE_OPENAI_', 'GEMINI_', 'GOOGLE_GEMINI_', 'GOOGLE_GENAI_', 'GOOGLE_CLOUD_', 'VERTEX_', 'AWS_', 'CLAUDE_CODE_', 'CODEX_'];
const PROVIDER_NAMES = new Set(['GOOGLE_API_KEY', 'GOOGLE_APPLICATION_CREDENTIALS', 'CLAUDE_CONFIG_DIR', 'CODEX_HOME']);
const CREDENTIAL_LIKE = /(TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|AUTH)/i;
/** Set by the launcher alone: the host's or the caller's values would point the agent somewhere else. */
const LAUNCHER_OWNED = new Set([
  'PATH', 'HOME', 'USERPROFILE', 'TMPDIR', 'TMP', 'TEMP', 'XDG_CONFIG_HOME', 'XDG_CACHE_HOME', 'XDG_DATA_HOME', 'XDG_STATE_HOME', 'XDG_RUNTIME_DIR',
  'HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'all_proxy', 'no_proxy',
  'NODE_OPTIONS', 'NODE_PATH', 'LD_PRELOAD', 'LD_LIBRARY_PATH', 'DYLD_INSERT_LIBRARIES', 'SSH_AUTH_SOCK', 'GPG_AGENT_INFO', 'DBUS_SESSION_BUS_ADDRESS',
  'IS_SANDBOX',
]);
/** Host variables a plain (unsandboxed) agent may still see: locale, terminal, time zone, who the user is, Windows' basics. */
const PLAIN_PASSTHROUGH = new Set(['LANG', 'LANGUAGE', 'TERM', 'TZ', 'USER', 'LOGNAME', 'SHELL', 'SystemRoot', 'SYSTEMROOT', 'ComSpec', 'COMSPEC', 'PATHEXT', 'WINDIR', 'SystemDrive']);

/** A variable through which a provider's credential or endpoint could reach the agent. */
export function isProviderVariable(name: string): boolean {
  return PROVIDER_NAMES.has(name) || PROVIDER_PREFIXES.some((prefix) => name.startsWith(prefix));
}

/** A variable the agent must not get from the caller or the host: provider settings, credentials, launcher-owned paths. */
export function isWithheldVariable(name: string): boolean {
  return isProviderVariable(name) || CREDENTIAL_LIKE.test(name) || LAUNCHER_OWNED.has(name) || isTerminalHostVariable(name);
}

/** What the credential proxy hands an agent: its base URL on 127.0.0.1 and the dummy key (never the real one). */
export interface AcpProxyEndpoint {
  baseUrl: string;
  apiKey: string;
}

export interface AcpAgentEnvInput {
  agentId: string;
  /** `<home>/acp/<agent>/`: the agent's HOME. */
  configHome: string;
  /** The variables the caller asked for (the launch request's and the entry's); withheld ones are dropped. */
  requested: Readonly<Record<string, string>>;
  /** The credential proxy's variables for this agent (proxyEnvFor's), or null when it runs without a credential. */
  proxyEnv: Readonly<Record<string, string>> | null;
  /** Folders to put first on PATH: the adapters' bin folders, node's. */
  pathFirst: readonly string[];
  sandboxed: boolean;
  /** The host's environment (process.env): only a plain agent sees any of it, and only PLAIN_PASSTHROUGH and PATH. */
  hostEnv: Readonly<Record<string, string | undefined>>;
  /** The temp folder a plain agent uses (the sandbox has its own /tmp). */
  hostTmpDir: string;
}

const SYSTEM_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** The proxy's base URL and dummy key in proxyEnvFor's variables (`…_BASE_URL`, `…_API_KEY`), or null. */
export function proxyEndpoint(proxyEnv: Readonly<Record<string, string>>): AcpProxyEndpoint | null {
  const baseUrl = Object.entries(proxyEnv).find(([name]) => name.endsWith('_BASE_URL'))?.[1];
  const apiKey = Object.entries(proxyEnv).find(([name]) => name.endsWith('_API_KEY'))?.[1];
  return baseUrl && apiKey ? { baseUrl, apiKey } : null;
}

export function buildAcpAgentEnv(input: AcpAgentEnvInput): Record<string, string> {
  const env: Record<string, string> = {};
  const sep = process.platform === 'win32' ? ';' : ':';
  if (!input.sandboxed) {
    for (const name of PLAIN_PASSTHROUGH) {
      const value = input.hostEnv[name];
      if (value !== undefined) env[name] = value;
    }
    for (const [name, value] of Object.entries(input.hostEnv)) if (name.startsWith('LC_') && value !== undefined) env[name] = value;
  }
  for (const [name, value] of Object.entries(input.requested)) {
    if (!isWithheldVariable(name)) env[name] = value;
  }
  const basePath = input.sandboxed ? SYSTEM_PATH : (input.hostEnv.PATH ?? input.hostEnv.Path ?? SYSTEM_PATH);
  env.PATH = [...new Set(input.pathFirst), basePath].join(sep);
  const home = input.configHome;
  env.HOME = home;
  if (process.platform === 'win32') env.USERPROFILE = home;
  env.XDG_CONFIG_HOME = join(home, '.config');
  env.XDG_CACHE_HOME = join(home, '.cache');
  env.XDG_DATA_HOME = join(home, '.local', 'share');
  env.XDG_STATE_HOME = join(home, '.local', 'state');
  env.TMPDIR = input.sandboxed ? '/tmp' : input.hostTmpDir;
  env.LANG ??= 'C.UTF-8';
  env.NO_UPDATE_NOTIFIER = '1';
  env.npm_config_update_notifier = 'false';
  if (input.agentId === 'claude') {
    env.CLAUDE_CONFIG_DIR = join(home, '.claude');
    env.DISABLE_AUTOUPDATER = '1';
    env.CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC = '1';
  }
  if (input.agentId === 'codex') env.CODEX_HOME = join(home, '.codex');
  if (input.sandboxed) env.IS_SANDBOX = '1';
  if (input.proxyEnv) {
    const names = PROVIDER_VARIABLES[input.agentId];
    const endpoint = proxyEndpoint(input.proxyEnv);
    if (names && endpoint) {
      env[names.baseUrl] = endpoint.baseUrl;
      env[names.apiKey] = endpoint.apiKey;
    } else {
      Object.assign(env, input.proxyEnv);
    }
  }
  return env;
}
