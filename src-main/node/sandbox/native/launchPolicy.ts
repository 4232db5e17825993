/**
 * What a caller asks of the native sandbox for one run, and what it gets back: the process to spawn instead of the
 * command, and hooks around the run's life. The shape matches the exec worker's launcher hook
 * (src-main/node/exec/launcher.ts), so a PreparedLaunch can be returned from a Launcher as it is.
 */

export interface NetworkRequestEvent {
  /** The policy's label (the run id, say), so the caller can ledger the request against its run. */
  label: string | undefined;
  host: string;
  port: number;
  /** "CONNECT" for a tunnel (HTTPS), else the HTTP method of a plain request. */
  method: string;
  allowed: boolean;
  /** Why it was refused ("not in the allowlist", "resolves to 127.0.0.1 (loopback)"), or "allowlisted". */
  reason: string;
}

export interface NetworkGrant {
  /** Host names the run may reach: "api.github.com" exactly, "*.example.com" any name under it (not the apex). */
  allowDomains: readonly string[];
  /** Asked at every request, so a revoked grant takes effect mid-run; false refuses the request. */
  stillGranted?(): boolean;
  /** Every proxied request, allowed or not. */
  onRequest?(event: NetworkRequestEvent): void;
}

/**
 * A service on the host the run may reach although it has no network: the sandbox listens on 127.0.0.1:<port> in its
 * own network namespace and forwards each connection to the unix socket (the credential proxy's, say), so a base URL
 * the host handed out as http://127.0.0.1:<port>/… works unchanged inside.
 */
export interface LocalService {
  /** 1–65535, not 3128 (the allowlist proxy's) and not twice in one policy. */
  port: number;
  /** Absolute path of the host's unix socket the service listens on. */
  socketPath: string;
}

export interface ResourceLimits {
  /** CPU time per process (RLIMIT_CPU): a backstop against a runaway loop; the run's timeout is the real bound. */
  cpuSeconds?: number;
  /** CPU bandwidth for the whole run, in thousandths of a core ("500m" in a manifest is 500); needs a cgroup. */
  cpuMillicores?: number;
  /** Memory of the whole run (all its processes); the kernel kills a process when it is exceeded; needs a cgroup. */
  memBytes?: number;
  /** Processes and threads the run may have at once (stops a fork bomb); needs a cgroup. */
  pids?: number;
  /**
   * Bytes a run with staged writes may hold in its staging layer (DEFAULT_STAGED_WRITE_BYTES when left out); it also
   * bounds how many files and folders it may create (one per 4 KiB). Reaching it ends the run (diskQuotaHit).
   */
  stagedWriteBytes?: number;
}

/** The staging layer's size when the policy names none: 1 GiB. */
export const DEFAULT_STAGED_WRITE_BYTES = 1024 * 1024 * 1024;

/** A run that reached its staged-writes limit: its writes are dropped, whatever its exit code. */
export interface DiskQuotaHit {
  limitBytes: number;
  /** In words, with the way out ("staged writes reached the limit of 4 MiB; ..."). */
  message: string;
}

export interface LaunchPolicy {
  /** The command; argv[0] is looked up on the sandbox's PATH when it has no slash. */
  argv: readonly string[];
  /** Absolute, inside the workspace: where the command starts. */
  cwd: string;
  /** Absolute real path: the only place the command may write. */
  workspace: string;
  /**
   * Variables for the command, over a small base (PATH, HOME, TMPDIR, LANG). Pass only what the run should see:
   * nothing of the host's environment is inherited.
   */
  env: Readonly<Record<string, string>>;
  /** null: no network at all (only the sandbox's own loopback). */
  network: NetworkGrant | null;
  /** Host services reachable on the sandbox's 127.0.0.1 (Linux only so far: macOS refuses a policy with them). */
  localServices?: readonly LocalService[];
  resources: ResourceLimits;
  /**
   * Absolute paths the command may read but not write, besides the system and the workspace: a native agent's own
   * folder, say. A secret place itself (the app home, ~/.ssh) cannot be one; a folder inside the app home can.
   */
  readOnlyPaths?: readonly string[];
  /**
   * Absolute paths, besides the workspace, the command may read and write, bound at their path (never staged): a
   * long-lived agent's own config folder, say. Each must exist, lie outside the workspace, show no secret place
   * (be one, contain one, or link to one) and lie in no secret place but the app home (a folder inside the app
   * home can be one: it is the app's, not the user's). Linux only so far (macOS refuses a policy with them).
   */
  writablePaths?: readonly string[];
  /** More absolute paths to hide (an empty directory, or /dev/null for a file) besides the default secret places. */
  hiddenPaths?: readonly string[];
  /**
   * Writes go to a staging layer and reach the workspace only through onSuccess(); onFailure() (a failed, killed
   * or timed-out run) drops them. Without it the command writes straight into the workspace.
   */
  stageWrites: boolean;
  /** The run has a terminal (a PTY): keep the controlling terminal (TIOCSTI is refused by seccomp instead). */
  tty?: boolean;
  /** Echoed in network events. */
  label?: string;
}

export interface PreparedLaunch {
  argv: string[];
  /** The complete environment to spawn argv with (do not merge it into the host's). */
  env: Record<string, string>;
  cwd: string;
  /** What is in force for this run, e.g. "bwrap", "seccomp", "netns", "cgroup-v1:memory", "rlimit:cpu", "staged-writes". */
  enforced: string[];
  afterSpawn?(pid: number): void;
  /** Commits the staged writes into the workspace. */
  onSuccess?(): Promise<void>;
  /** Drops the staged writes. */
  onFailure?(): Promise<void>;
  /** The run reached its staged-writes limit (its writes must be dropped, not committed), else null. Ask before onSuccess and dispose. */
  diskQuotaHit?(): DiskQuotaHit | null;
  /** A limit the run ran into, in words ("memory limit of 64 MiB reached: the kernel killed a process"), else null. Ask before dispose. */
  limitHit?(): string | null;
  /** Kills what is left of the run, removes its cgroup, staging and proxy. Always call it, last. */
  dispose?(): void;
}
