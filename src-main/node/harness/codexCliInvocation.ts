import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { CliInvocation, CliInvocationInput } from './cliInvocation';
import { codexHomeDir, codexHomeInTempWarning, materializeCodexHome } from './codexHome';
import { assertResumableKey } from './continuationKey';

/**
 * argv/env for Codex (flags checked against `codex --help`, `codex exec --help` and `codex exec resume --help` of
 * @openai/codex 0.169.0):
 * - interactive: `codex [resume] --no-daemon ...`: without --no-daemon the TUI starts (or joins) the shared
 *   background app-server, which outlives the TUI; `--disable daemon_auto_start` says the same as a feature flag;
 * - headless: `codex exec [resume] --json --skip-git-repo-check`: JSONL events on stdout (the first is
 *   `thread.started` with the thread id, the continuation key); a workspace need not be a git repository;
 * - `exec resume` takes neither -C nor -s, so the sandbox goes in as `-c sandbox_mode=...` and the cwd is the
 *   process cwd;
 * - the prompt (and the resume id) go after `--`. Headless Codex also reads stdin when it is not a terminal
 *   ("Reading additional input from stdin..."), so a headless run's stdin must be closed: see harnessStdio().
 */
export function buildCodexCliInvocation(input: CliInvocationInput): CliInvocation {
  const { request, options, cwd, warnings } = input;
  const headless = request.interactionMode === 'headless';
  const key = request.continuation?.key;
  if (key !== undefined) assertResumableKey('codex-cli', key);

  const bypass = options.permissionMode === 'bypass';
  const sandbox = 'workspace-write';
  // Headless there is nobody to ask: a command the sandbox refuses fails and the model is told so.
  const approval = headless ? 'never' : 'on-request';

  const argv = [options.executable ?? 'codex'];
  if (headless) argv.push('exec');
  if (key !== undefined) argv.push('resume');
  if (headless) argv.push('--json', '--skip-git-repo-check');
  else argv.push('--no-daemon');
  argv.push('--disable', 'daemon_auto_start');

  if (bypass) {
    argv.push('--dangerously-bypass-approvals-and-sandbox');
  } else if (headless && key !== undefined) {
    argv.push('-c', `sandbox_mode="${sandbox}"`, '-c', `approval_policy="${approval}"`);
  } else if (headless) {
    argv.push('-C', cwd, '-s', sandbox, '-c', `approval_policy="${approval}"`);
  } else {
    argv.push('-C', cwd, '-s', sandbox, '-a', approval);
  }
  if (bypass && !(headless && key !== undefined)) argv.push('-C', cwd);
  if (request.model !== undefined) argv.push('-m', request.model);
  if (request.spec.instructions) argv.push('-c', `developer_instructions=${JSON.stringify(request.spec.instructions)}`);

  const positional = [...(key !== undefined ? [key] : []), ...(options.prompt !== undefined ? [options.prompt] : [])];
  if (positional.length > 0) argv.push('--', ...positional);

  const env: Record<string, string> = { ...input.env };
  if (!options.useUserConfig) {
    const codexHome = codexHomeDir(request.aspHome);
    warnings.push(...materializeCodexHome(codexHome, cwd, options.openaiEndpoint));
    if (!options.openaiEndpoint && !headless && !existsSync(join(codexHome, 'auth.json'))) {
      warnings.push('no openaiEndpoint and no login in the harness CODEX_HOME: the Codex TUI will open on its sign-in screen');
    }
    env.CODEX_HOME = codexHome;
    const inTemp = codexHomeInTempWarning(codexHome, env);
    if (inTemp) warnings.push(inTemp);
  } else {
    warnings.push(`using the user's own Codex config in ${join(options.userHome ?? homedir(), '.codex')}; its trust and update prompts are not pre-answered`);
  }
  // Codex reports the thread id of a new conversation in its first event; until then there is no key.
  return { argv, env, continuation: { provider: 'openai', ...(key !== undefined ? { key } : {}) } };
}
