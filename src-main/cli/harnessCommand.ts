import { join } from 'node:path';
import { buildProcessInvocationSpec, harnessStdio, HarnessError, isHarnessFrontend, HARNESS_FRONTENDS, type BuildProcessInvocationSpecRequest } from '../node/harness';
import { resolveHome } from '../node/home';
import { parseFlags, UsageError } from './args';

export const harnessUsage = `  harness spec --frontend claude-code|codex-cli --mode interactive|headless --io pty|pipes|inherit --cwd DIR
        [--provider anthropic|openai --continuation KEY] [--origin-cwd DIR] [--prompt TEXT] [--model M]
        [--permission-mode ask|acceptEdits|bypass] [--openai-base-url URL] [--user-config] [--home DIR]
        Print, as JSON, the process invocation spec the host would spawn for a Claude Code or Codex session
        ({spec: {argv, cwd, env, ...}, warnings, stdio}); prepares the harness home under <home>/harness.
        Nothing is run. Exit 1 with {"error": {code, message}} on stderr when the request is refused.`;

const choices = {
  mode: ['interactive', 'headless'],
  io: ['pty', 'pipes', 'inherit'],
  provider: ['anthropic', 'openai'],
  'permission-mode': ['ask', 'acceptEdits', 'bypass'],
} as const;

function choice<K extends keyof typeof choices>(flags: Record<string, unknown>, name: K, required: boolean): (typeof choices)[K][number] | undefined {
  const value = flags[name];
  if (value === undefined) {
    if (required) throw new UsageError(`harness spec needs --${name} ${choices[name].join('|')}`);
    return undefined;
  }
  if (typeof value !== 'string' || !(choices[name] as readonly string[]).includes(value)) {
    throw new UsageError(`--${name} must be one of ${choices[name].join(', ')}, not "${String(value)}"`);
  }
  return value as (typeof choices)[K][number];
}

/** `omni harness spec ...`: returns the process exit code. */
export async function harnessCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== 'spec') throw new UsageError(sub === undefined ? 'harness needs a subcommand: spec' : `unknown harness subcommand "${sub}"; use spec`);
  const flags = parseFlags(rest, {
    frontend: 'value',
    mode: 'value',
    io: 'value',
    cwd: 'value',
    provider: 'value',
    continuation: 'value',
    'origin-cwd': 'value',
    prompt: 'value',
    model: 'value',
    'permission-mode': 'value',
    'user-config': 'flag',
    'openai-base-url': 'value',
    home: 'value',
    session: 'value',
  });
  const frontend = flags.frontend;
  if (typeof frontend !== 'string') throw new UsageError('harness spec needs --frontend claude-code|codex-cli');
  const mode = choice(flags, 'mode', true)!;
  const io = choice(flags, 'io', true)!;
  if (typeof flags.cwd !== 'string') throw new UsageError('harness spec needs --cwd DIR (an absolute path)');
  const provider = choice(flags, 'provider', false);
  const key = typeof flags.continuation === 'string' ? flags.continuation : undefined;
  if (key !== undefined && provider === undefined) throw new UsageError('--continuation needs --provider anthropic|openai (the provider the key belongs to)');

  try {
    if (!isHarnessFrontend(frontend) || (frontend !== 'claude-code' && frontend !== 'codex-cli')) {
      const known = HARNESS_FRONTENDS.includes(frontend as never);
      throw new HarnessError(
        known ? 'HARNESS_UNSUPPORTED_MODE' : 'HARNESS_UNKNOWN_FRONTEND',
        known ? `${frontend} is an SDK harness with no process to spawn; use claude-code or codex-cli` : `unknown harness frontend "${frontend}"; use claude-code or codex-cli`,
      );
    }
    const home = resolveHome(typeof flags.home === 'string' ? flags.home : undefined);
    const request: BuildProcessInvocationSpecRequest = {
      cpSessionId: typeof flags.session === 'string' ? flags.session : 'cli',
      aspHome: join(home, 'harness'),
      spec: {},
      provider: frontend === 'claude-code' ? 'anthropic' : 'openai',
      frontend,
      interactionMode: mode,
      ioMode: io,
      cwd: flags.cwd,
      ...(typeof flags.model === 'string' ? { model: flags.model } : {}),
      ...(provider !== undefined ? { continuation: { provider, ...(key !== undefined ? { key } : {}) } } : {}),
    };
    const permissionMode = choice(flags, 'permission-mode', false);
    const response = buildProcessInvocationSpec(request, {
      ...(typeof flags.prompt === 'string' ? { prompt: flags.prompt } : {}),
      ...(typeof flags['origin-cwd'] === 'string' ? { originCwd: flags['origin-cwd'] } : {}),
      ...(permissionMode !== undefined ? { permissionMode } : {}),
      ...(flags['user-config'] === true ? { useUserConfig: true } : {}),
      ...(typeof flags['openai-base-url'] === 'string' ? { openaiEndpoint: { baseUrl: flags['openai-base-url'] } } : {}),
    });
    console.log(JSON.stringify({ ...response, stdio: harnessStdio(response.spec) }, null, 2));
    return 0;
  } catch (error) {
    if (error instanceof HarnessError) {
      console.error(JSON.stringify({ error: error.toJSON() }));
      return 1;
    }
    throw error;
  }
}
