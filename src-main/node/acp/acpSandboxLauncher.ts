import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { LocalService, NetworkRequestEvent, PreparedLaunch, ResourceLimits } from '../sandbox/native/launchPolicy';
import type { NativeSandbox } from '../sandbox/native/nativeSandbox';
import { materializeCodexHome } from '../harness/codexHome';
import { buildAcpAgentEnv } from './acpAgentEnv';
import { resolveAgentCommand } from './acpAgentCommand';
import { AcpError } from './acpError';
import type { AcpAgentProcess, AcpLaunchRequest, AcpProcessLauncher } from './acpProcess';
import { acpSandboxPolicy } from './acpSandboxPolicy';
import { materializeGeminiSettings } from './geminiSettings';

/**
 * Starts ACP agents (the adapter and everything it starts) in the native sandbox (docs/acp.md, Sandbox):
 * the workspace and the agent's config folder writable, the rest of the user's home hidden, network only to the
 * provider's API hosts through the egress proxy, the provider's credential only through the credential proxy.
 * Where this machine has no usable sandbox (bwrap missing, no user namespaces; macOS until its adapter is proven;
 * Windows) the agent runs plain, `sandboxed: false`, and `availability().reason` says why, for the card.
 */

/** What the credential source gives a launch: the proxy's variables, its bridge, the provider's hosts. */
export interface AcpAgentCredential {
  /** proxyEnvFor's variables: the provider's base URL on 127.0.0.1 and a dummy key bound to a handle. */
  env: Record<string, string>;
  /** The credential proxy's unix socket and port (CredentialServices.proxyBridge()). */
  bridge: LocalService;
  /** The provider's API hosts: the only names the agent may reach through the egress proxy. */
  apiHosts: readonly string[];
  /** Asked at every egress request: false (the grant was revoked) refuses it. */
  stillGranted?(): boolean;
  /** Ends the grant/handle behind the dummy key; called once the agent has exited. */
  release(): void;
}

export interface AcpSandboxLauncherOptions {
  /** The host's native sandbox; null where there is none. */
  sandbox: NativeSandbox | null;
  appHome: string;
  /** Folders adapters are installed in (`<dir>/node_modules/.bin/<command>`); default `<home>/acp-agents`. */
  adapterDirs?: readonly string[];
  /** The credential an agent gets for a session, or null (it runs without one). */
  credential?(request: AcpLaunchRequest): Promise<AcpAgentCredential | null>;
  /** The node binary adapters run on (on PATH first, shared read-only); default process.execPath. */
  nodePath?: string;
  resources?: ResourceLimits;
  onNetworkRequest?(event: NetworkRequestEvent & { agentId: string; sessionId: string }): void;
  /** Refuse to run an agent plain where no sandbox is usable (default false: run plain and say so). */
  requireSandbox?: boolean;
  /** How long kill() waits after SIGTERM before SIGKILL (default 2000 ms). */
  killGraceMs?: number;
  /** For tests: the platform to decide for (default process.platform). */
  platform?: NodeJS.Platform;
  /** For tests: the host environment a plain agent's PATH and locale come from (default process.env). */
  hostEnv?: Readonly<Record<string, string | undefined>>;
}

export interface AcpSandboxAvailability {
  sandboxed: boolean;
  /** Why agents run plain here, in words for the card ("no native sandbox on Windows yet …"); null when sandboxed. */
  reason: string | null;
}

/** A launched agent: the interface's process, plus what the sandbox enforces and why not, for the card. */
export interface AcpLaunchedAgent extends AcpAgentProcess {
  /** What is in force ("bwrap", "netns", "local-service:…", …); empty when plain. */
  enforced: readonly string[];
  /** Why this agent runs plain, or null. */
  unsandboxedReason: string | null;
}

export interface AcpSandboxLauncher extends AcpProcessLauncher {
  launch(request: AcpLaunchRequest): Promise<AcpLaunchedAgent>;
  availability(): AcpSandboxAvailability;
}

/** `<home>/acp/<agent>/`: the agent's own config folder (its HOME), made 0700 when missing. */
export function acpConfigHome(appHome: string, agentId: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(agentId)) throw new AcpError('ACP_BAD_REQUEST', `"${agentId}" cannot name a folder: use letters, digits, ".", "_" or "-"`);
  return join(appHome, 'acp', agentId);
}

export function createAcpSandboxLauncher(options: AcpSandboxLauncherOptions): AcpSandboxLauncher {
  const platform = options.platform ?? process.platform;
  const hostEnv = options.hostEnv ?? process.env;
  const nodePath = options.nodePath ?? process.execPath;
  const adapterDirs = options.adapterDirs ?? [join(options.appHome, 'acp-agents')];
  const graceMs = options.killGraceMs ?? 2000;

  let decided: AcpSandboxAvailability | null = null;
  const availability = (): AcpSandboxAvailability => {
    if (decided) return decided;
    if (platform === 'win32') return (decided = { sandboxed: false, reason: 'no native sandbox on Windows yet: the agent runs with your user\'s rights (it can read and change what you can)' });
    if (platform === 'darwin') return (decided = { sandboxed: false, reason: 'the macOS sandbox adapter is not proven yet: the agent runs with your user\'s rights (it can read and change what you can)' });
    if (platform !== 'linux' || !options.sandbox) return (decided = { sandboxed: false, reason: `no native sandbox on ${platform}: the agent runs with your user's rights` });
    const probe = options.sandbox.probeSandbox();
    if (!probe.usable) {
      const problem = probe.problem;
      return (decided = { sandboxed: false, reason: `the native sandbox is unavailable here (${problem ? `${problem.message} — ${problem.hint}` : 'unknown reason'}): the agent runs with your user's rights` });
    }
    return (decided = { sandboxed: true, reason: null });
  };

  return {
    availability,
    async launch(request) {
      const mode = availability();
      if (!mode.sandboxed && options.requireSandbox) throw new AcpError('ACP_AGENT_MISSING', `refusing to start ${request.agent.name} outside a sandbox: ${mode.reason}`);
      const resolved = resolveAgentCommand(request.agent.command, adapterDirs, hostEnv.PATH ?? hostEnv.Path);
      let workspace: string;
      try {
        workspace = realpathSync(request.workspace);
      } catch (error) {
        throw new AcpError('ACP_BAD_REQUEST', `the workspace ${request.workspace} does not exist`, { cause: error });
      }
      const configHome = acpConfigHome(options.appHome, request.agent.id);
      mkdirSync(configHome, { recursive: true, mode: 0o700 });
      const credential = (await options.credential?.(request)) ?? null;
      try {
        const env = buildAcpAgentEnv({
          agentId: request.agent.id,
          configHome,
          requested: { ...request.env, ...request.agent.env },
          proxyEnv: credential?.env ?? null,
          pathFirst: [...(resolved.binDir ? [resolved.binDir] : []), dirname(nodePath)],
          sandboxed: mode.sandboxed,
          hostEnv,
          hostTmpDir: tmpdir(),
        });
        // The agent's own folders (CODEX_HOME, CLAUDE_CONFIG_DIR): Codex refuses to start when CODEX_HOME is missing.
        for (const name of ['CODEX_HOME', 'CLAUDE_CONFIG_DIR']) {
          const dir = env[name];
          if (dir && dir.startsWith(`${configHome}/`)) mkdirSync(dir, { recursive: true, mode: 0o700 });
        }
        // Codex (codex-acp) asks to sign in unless its config names a model provider: the credential proxy's endpoint,
        // its dummy key in OPENAI_API_KEY; the workspace trusted, no update checks or analytics (codexHome.ts).
        if (request.agent.id === 'codex' && env.CODEX_HOME?.startsWith(`${configHome}/`)) {
          // OPENAI_BASE_URL is the proxy's alone (acpAgentEnv.ts withholds the host's and the caller's).
          materializeCodexHome(env.CODEX_HOME, workspace, env.OPENAI_BASE_URL ? { baseUrl: env.OPENAI_BASE_URL, envKey: 'OPENAI_API_KEY' } : undefined);
        }
        // Gemini CLI: no usage statistics to Google's logging host, the model endpoint is its only peer (geminiSettings.ts).
        if (request.agent.id === 'gemini') materializeGeminiSettings(env.HOME);
        const argv = [resolved.program, ...request.agent.args];
        if (!mode.sandboxed) return startPlain(argv, workspace, env, credential, mode.reason, graceMs);
        const label = `acp:${request.agent.id}:${request.sessionId}`;
        const launch = await options.sandbox!.prepareLaunch(
          acpSandboxPolicy({
            argv,
            workspace,
            configHome,
            installDir: resolved.installDir,
            nodePath,
            env,
            apiHosts: credential?.apiHosts ?? [],
            credentialBridge: credential?.bridge ?? null,
            label,
            stillGranted: credential?.stillGranted ? () => credential.stillGranted!() : undefined,
            onRequest: options.onNetworkRequest ? (event) => options.onNetworkRequest!({ ...event, agentId: request.agent.id, sessionId: request.sessionId }) : undefined,
            resources: options.resources,
          }),
        );
        return startSandboxed(launch, credential, graceMs);
      } catch (error) {
        credential?.release();
        throw error;
      }
    },
  };
}

function startSandboxed(launch: PreparedLaunch, credential: AcpAgentCredential | null, graceMs: number): AcpLaunchedAgent {
  let child: ChildProcess;
  try {
    child = spawn(launch.argv[0], launch.argv.slice(1), { env: launch.env, cwd: launch.cwd, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  } catch (error) {
    launch.dispose?.();
    throw error;
  }
  if (child.pid !== undefined) launch.afterSpawn?.(child.pid);
  return track(child, launch.enforced, null, graceMs, () => {
    launch.dispose?.();
    credential?.release();
  });
}

function startPlain(argv: string[], cwd: string, env: Record<string, string>, credential: AcpAgentCredential | null, reason: string | null, graceMs: number): AcpLaunchedAgent {
  // Its own process group (POSIX), so kill() reaches what it started too; Windows has no groups (taskkill /T).
  const child = spawn(argv[0], argv.slice(1), { env, cwd, stdio: ['pipe', 'pipe', 'pipe'], detached: process.platform !== 'win32', windowsHide: true });
  return track(child, [], reason, graceMs, () => credential?.release());
}

function track(child: ChildProcess, enforced: readonly string[], unsandboxedReason: string | null, graceMs: number, cleanUp: () => void): AcpLaunchedAgent {
  let cleaned = false;
  const once = () => {
    if (cleaned) return;
    cleaned = true;
    cleanUp();
  };
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    // A program that could not be started at all: ENOENT/EACCES surface here, not as a throw from spawn.
    child.once('error', () => {
      if (child.exitCode === null && child.signalCode === null && child.pid === undefined) resolve({ code: null, signal: null });
    });
  }).then((result) => {
    // The tree is gone with the sandbox's pid namespace; reap the group as well (a plain agent's children).
    signalGroup(child, 'SIGKILL');
    once();
    return result;
  });
  let killing: Promise<void> | null = null;
  return {
    stdin: child.stdin!,
    stdout: child.stdout!,
    stderr: child.stderr!,
    pid: child.pid ?? -1,
    sandboxed: unsandboxedReason === null,
    enforced,
    unsandboxedReason,
    exited,
    kill() {
      killing ??= (async () => {
        signalGroup(child, 'SIGTERM');
        const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), graceMs).unref());
        if ((await Promise.race([exited.then(() => 'exited' as const), timer])) === 'timeout') signalGroup(child, 'SIGKILL');
        await exited;
      })();
      return killing;
    },
  };
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    if (process.platform === 'win32') {
      if (signal === 'SIGKILL' && child.exitCode === null) spawn('taskkill', ['/pid', String(child.pid), '/T', '/F'], { windowsHide: true, stdio: 'ignore' });
      else child.kill(signal);
    } else {
      process.kill(-child.pid, signal);
    }
  } catch {
    // the group is gone already
  }
}
