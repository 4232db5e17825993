import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { parse, stringify } from 'smol-toml';
import { writeFileDurably } from '../base/durableWrite';

/** Our own CODEX_HOME under the harness home; the user's ~/.codex stays untouched. */
export function codexHomeDir(aspHome: string): string {
  return join(aspHome, 'codex-cli', 'home');
}

type Table = Record<string, unknown>;

function table(value: unknown): Table {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Table) : {};
}

/**
 * Writes what Codex needs to start without questions into `<CODEX_HOME>/config.toml` (keys checked against
 * codex-cli 0.169.0), keeping every other key (a model provider the host configured, for example):
 * - `projects."<cwd>".trust_level = "trusted"`: no "do you trust this folder" screen for the workspace;
 * - `check_for_update_on_startup = false`: no update prompt in the TUI (the host pins the version);
 * - `features.daemon_auto_start = false`: the TUI does not leave the shared background app-server running after
 *   it exits (the argv also says `--no-daemon` / `--disable daemon_auto_start`, for runs on the user's config);
 * - `analytics.enabled = false` and `features.plugins = false`: the model endpoint is the only peer. Without them
 *   0.169.0 looks up ab.chatgpt.com (its OTLP metrics endpoint) and runs `git ls-remote
 *   https://github.com/openai/plugins.git` on every start (seen with strace against a local mock);
 * - with an endpoint: `model_provider = "omni"` and `[model_providers.omni]` (base_url, env_key, wire_api =
 *   "responses"), which is also what keeps the TUI off its sign-in screen (checked in a PTY with 0.169.0).
 */
export function materializeCodexHome(codexHome: string, cwd: string, endpoint?: { baseUrl: string; envKey?: string }): string[] {
  const warnings: string[] = [];
  mkdirSync(codexHome, { recursive: true, mode: 0o700 });
  const file = join(codexHome, 'config.toml');
  let config: Table = {};
  if (existsSync(file)) {
    try {
      config = parse(readFileSync(file, 'utf8')) as Table;
    } catch (error) {
      warnings.push(`${file} was not valid TOML (${(error as Error).message.split('\n')[0]}); it was rewritten`);
    }
  }
  const projects = table(config.projects);
  const next: Table = {
    ...config,
    check_for_update_on_startup: false,
    features: { ...table(config.features), daemon_auto_start: false, plugins: false },
    analytics: { ...table(config.analytics), enabled: false },
    projects: { ...projects, [cwd]: { ...table(projects[cwd]), trust_level: 'trusted' } },
  };
  if (endpoint) {
    next.model_provider = 'omni';
    next.model_providers = {
      ...table(config.model_providers),
      omni: { name: 'Omniscient Shell', base_url: endpoint.baseUrl, env_key: endpoint.envKey ?? 'OPENAI_API_KEY', wire_api: 'responses' },
    };
  }
  // Mode 0600: the CLIs keep their own state (and, for Claude Code, approved key tails) here.
  writeFileDurably(file, stringify(next), { mode: 0o600 });
  return warnings;
}

/**
 * Codex (0.169.0) will not create its helper links (`codex-linux-sandbox`, the arg0 aliases it puts on PATH) under
 * the temp folder it sees (`TMPDIR`, else /tmp): it prints "Refusing to create helper binaries under temporary dir"
 * and goes on, and then every sandboxed shell command fails with "bwrap: execvp codex-linux-sandbox: No such file
 * or directory" (seen with the real CLI against a mock model). The temp folder is the one the process will get:
 * the request's TMPDIR, else the host's, which the host's env passes on.
 */
export function codexHomeInTempWarning(codexHome: string, env: Record<string, string>): string | undefined {
  const tempDir = resolve(env.TMPDIR || process.env.TMPDIR || '/tmp');
  const home = resolve(codexHome);
  if (home !== tempDir && !home.startsWith(tempDir.endsWith(sep) ? tempDir : tempDir + sep)) return undefined;
  return (
    `CODEX_HOME ${home} is inside the temp folder ${tempDir}: Codex does not set up its sandbox helper there, so its shell commands ` +
    `will fail ("codex-linux-sandbox: No such file or directory"). Use a harness home outside ${tempDir}, or give the run a TMPDIR elsewhere (request.env.TMPDIR).`
  );
}
