import { randomUUID } from 'node:crypto';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { claudeConfigDir, findClaudeTranscript, materializeClaudeCodeHome } from './claudeCodeHome';
import type { CliInvocation, CliInvocationInput } from './cliInvocation';
import { assertResumableKey } from './continuationKey';
import { HarnessError } from './harnessError';

/**
 * argv/env for Claude Code (flags checked against `claude --help` of @anthropic-ai/claude-code 2.1.330):
 * - headless: `-p --output-format stream-json --verbose` (stream-json needs --verbose in print mode);
 * - every conversation has a key before it starts: `--session-id <uuid>` for a new one (so the host can resume it
 *   even if the app closes before the first answer), `--resume <uuid>` once its transcript exists;
 * - the prompt goes after `--`, so a prompt starting with "-" is not read as a flag and a variadic flag
 *   (`--mcp-config`) does not swallow it.
 */
export function buildClaudeCodeInvocation(input: CliInvocationInput): CliInvocation {
  const { request, options, cwd, warnings } = input;
  const headless = request.interactionMode === 'headless';
  const configDir = options.useUserConfig ? join(options.userHome ?? homedir(), '.claude') : claudeConfigDir(request.aspHome);
  const argv = [options.executable ?? 'claude'];
  if (headless) argv.push('-p', '--output-format', 'stream-json', '--verbose');

  const key = request.continuation?.key;
  let sessionKey: string;
  if (key !== undefined) {
    assertResumableKey('claude-code', key);
    if (options.originCwd !== undefined && options.originCwd !== cwd) throw cwdMismatch(key, options.originCwd, cwd);
    const transcript = findClaudeTranscript(configDir, key);
    if (transcript && !transcript.belongsTo(cwd)) throw cwdMismatch(key, transcript.recordedCwd ?? `the folder Claude Code names ${transcript.projectDir}`, cwd);
    if (transcript) {
      argv.push('--resume', key);
    } else {
      // No transcript yet: the session was created but never got an answer. Start it under the same id.
      argv.push('--session-id', key);
      warnings.push(`no Claude Code transcript for session ${key} in ${configDir}; starting that conversation fresh under the same id`);
    }
    sessionKey = key;
  } else {
    sessionKey = randomUUID();
    argv.push('--session-id', sessionKey);
  }

  if (request.model !== undefined) argv.push('--model', request.model);
  if (request.spec.instructions) argv.push('--append-system-prompt', request.spec.instructions);
  argv.push(...permissionArgs(input));

  if (options.prompt !== undefined) argv.push('--', options.prompt);

  // The model endpoint is the only peer, as for the agent-sdk frontend: no self-update under the host, no
  // nonessential traffic (telemetry, error reports, side requests such as titles: without it 2.1.330's TUI sent a
  // second model request per message), and no install of the official plugin marketplace from GitHub (the TUI looks
  // up github.com at start without it; seen with strace).
  const env: Record<string, string> = {
    ...input.env,
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL: '1',
  };
  if (!options.useUserConfig) {
    warnings.push(...materializeClaudeCodeHome(configDir, cwd, input.env.ANTHROPIC_API_KEY));
    env.CLAUDE_CONFIG_DIR = configDir;
  } else {
    warnings.push(`using the user's own Claude Code config in ${configDir}; its onboarding and trust prompts are not pre-answered`);
  }
  return { argv, env, continuation: { provider: 'anthropic', key: sessionKey } };
}

function cwdMismatch(key: string, origin: string, cwd: string): HarnessError {
  return new HarnessError(
    'HARNESS_RESUME_CWD_MISMATCH',
    `Claude Code session ${key} was started in ${origin}; it can only be resumed from there (Claude Code keeps conversations per folder and would answer "No conversation found" from ${cwd}). Resume it with --cwd ${origin}, or start a new session in ${cwd}.`,
  );
}

/**
 * Claude Code exits with "--dangerously-skip-permissions cannot be used with root/sudo privileges" when asked to
 * bypass permissions as root (2.1.330 checks process.getuid() === 0 for both --dangerously-skip-permissions and
 * --permission-mode bypassPermissions), so a bypass request as root falls back to asking.
 */
function permissionArgs({ request, options, warnings }: CliInvocationInput): string[] {
  let mode = options.permissionMode ?? 'ask';
  const uid = options.uid ?? process.getuid?.();
  if (mode === 'bypass' && uid === 0) {
    warnings.push(
      'running as root: Claude Code refuses to bypass permissions as root, so tool permissions are asked instead (through the permission prompt tool when headless)',
    );
    mode = 'ask';
  }
  if (mode === 'bypass') return ['--permission-mode', 'bypassPermissions'];
  // Said explicitly: 2.1.330's interactive default is "auto" (the model judges its own tool calls); "manual" asks
  // about each call that needs approval, which is what the app's consent model means by asking.
  const args = ['--permission-mode', mode === 'acceptEdits' ? 'acceptEdits' : 'manual'];
  if (request.interactionMode === 'headless') {
    const prompt = options.permissionPromptTool;
    if (prompt) {
      args.push('--permission-prompt-tool', prompt.tool, '--mcp-config', prompt.mcpConfig);
    } else {
      args.push('--permission-prompts', 'none');
      warnings.push('no permission prompt tool given: a headless run denies every tool use that would ask for permission (fail closed)');
    }
  }
  return args;
}
