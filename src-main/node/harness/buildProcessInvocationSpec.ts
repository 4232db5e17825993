import { existsSync, statSync } from 'node:fs';
import { isAbsolute, normalize } from 'node:path';
import { buildClaudeCodeInvocation } from './claudeCodeInvocation';
import type { CliInvocation, CliInvocationInput } from './cliInvocation';
import { buildCodexCliInvocation } from './codexCliInvocation';
import { formatDisplayCommand } from './displayCommand';
import { HarnessError } from './harnessError';
import { assertContinuationProvider, harnessKind, providerOf } from './harnessRegistry';
import type { InvocationOptions } from './invocationOptions';
import { isTerminalHostVariable } from './terminalHostEnv';
import type { BuildProcessInvocationSpecRequest, BuildProcessInvocationSpecResponse } from './types';

const BUILDERS: Record<BuildProcessInvocationSpecRequest['frontend'], (input: CliInvocationInput) => CliInvocation> = {
  'claude-code': buildClaudeCodeInvocation,
  'codex-cli': buildCodexCliInvocation,
};

/**
 * Spec §2.3 B: everything the host needs to spawn a CLI harness itself: argv (never shell-parsed), an absolute
 * cwd, the env delta to merge into the process env, and the continuation the run resumes or starts. Materializes
 * the CLI's config under `aspHome` (deterministic paths) so the CLI starts without onboarding or trust prompts.
 * Refuses with a HarnessError (typed code) anything that would spawn the wrong thing.
 */
export function buildProcessInvocationSpec(request: BuildProcessInvocationSpecRequest, options: InvocationOptions = {}): BuildProcessInvocationSpecResponse {
  const provider = providerOf(request.frontend);
  if (harnessKind(request.frontend) !== 'cli') {
    throw new HarnessError('HARNESS_UNSUPPORTED_MODE', `${request.frontend} is an SDK harness: run its turns with runTurnNonInteractive, not as a process`);
  }
  if (request.provider !== provider) {
    throw new HarnessError('HARNESS_PROVIDER_MISMATCH', `${request.frontend} is an ${provider} harness, but the request says provider "${request.provider}"`);
  }
  assertContinuationProvider(request.frontend, request.continuation);
  if (request.interactionMode !== 'interactive' && request.interactionMode !== 'headless') {
    throw new HarnessError('HARNESS_UNSUPPORTED_MODE', `interactionMode must be "interactive" or "headless" for a CLI harness, not ${JSON.stringify(request.interactionMode)}`);
  }
  if (!['pty', 'pipes', 'inherit'].includes(request.ioMode)) {
    throw new HarnessError('HARNESS_UNSUPPORTED_MODE', `ioMode must be "pty", "pipes" or "inherit", not ${JSON.stringify(request.ioMode)}`);
  }
  const cwd = checkDirectory('cwd', request.cwd);
  if (!isAbsolute(request.aspHome)) {
    throw new HarnessError('HARNESS_CWD_NOT_ABSOLUTE', `aspHome must be an absolute path (the harness home, e.g. <app home>/harness), not "${request.aspHome}"`);
  }
  if (request.interactionMode === 'headless' && (options.prompt === undefined || options.prompt.trim() === '')) {
    throw new HarnessError('HARNESS_PROMPT_REQUIRED', `a headless ${request.frontend} run needs a prompt (without one the CLI waits for it on stdin); pass one, or use interactionMode "interactive"`);
  }

  const warnings: string[] = [];
  if (request.interactionMode === 'interactive' && request.ioMode === 'pipes') {
    warnings.push(`an interactive ${request.frontend} over pipes has no terminal: its TUI needs a PTY (ioMode "pty"), and Claude Code falls back to print mode when stdout is not a terminal`);
  }
  const input: CliInvocationInput = { request: { ...request, aspHome: normalize(request.aspHome) }, options, cwd, env: envDelta(request.env, warnings), warnings };
  const built = BUILDERS[request.frontend](input);
  return {
    spec: {
      provider,
      frontend: request.frontend,
      argv: built.argv,
      cwd,
      env: built.env,
      interactionMode: request.interactionMode,
      ioMode: request.ioMode,
      ...(built.continuation ? { continuation: built.continuation } : {}),
      displayCommand: formatDisplayCommand(built.argv, cwd, built.env),
    },
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}

export function checkDirectory(what: string, path: string): string {
  if (typeof path !== 'string' || !isAbsolute(path)) {
    throw new HarnessError('HARNESS_CWD_NOT_ABSOLUTE', `${what} must be an absolute path (the CLI resolves its project from it), not ${JSON.stringify(path)}`);
  }
  const normalized = normalize(path).replace(/(.)\/+$/, '$1');
  if (!existsSync(normalized) || !statSync(normalized).isDirectory()) {
    throw new HarnessError('HARNESS_CWD_MISSING', `${what} ${normalized} is not an existing directory; create it or pick the workspace folder`);
  }
  return normalized;
}

/** The caller's env delta minus the terminal host's variables (the host that owns the PTY sets those). */
export function envDelta(env: Record<string, string> | undefined, warnings: string[]): Record<string, string> {
  const delta: Record<string, string> = {};
  for (const [name, value] of Object.entries(env ?? {})) {
    if (typeof value !== 'string') throw new HarnessError('HARNESS_BAD_ENV', `env.${name} must be a string, not ${typeof value}`);
    if (name === '' || name.includes('=') || name.includes('\0') || value.includes('\0')) {
      throw new HarnessError('HARNESS_BAD_ENV', `env entry ${JSON.stringify(name)} is not a valid variable (no "=" or NUL in names, no NUL in values)`);
    }
    if (isTerminalHostVariable(name)) {
      warnings.push(`env.${name} dropped: terminal-host variables belong to the host that owns the terminal`);
      continue;
    }
    delta[name] = value;
  }
  return delta;
}
