/**
 * How a run's process is started. The runner asks the launcher for the final argv, environment and working
 * directory, so a sandbox (src-main/node/sandbox/native) can wrap the command (bwrap, say) and stage the run's
 * writes, committing them only when the run succeeds. The default launcher starts the command as asked.
 */

/** What the launcher is told about the run it prepares. */
export interface LaunchRequest {
  readonly runId: string;
  readonly sessionId: string;
  readonly actor: string;
  readonly attempt: number;
  readonly argv: readonly string[];
  readonly cwd: string;
  /** The environment the run gets without a sandbox (the host's, minus its own plumbing, plus the run marker). */
  readonly env: Readonly<Record<string, string>>;
  readonly pty: boolean;
  readonly timeoutSecs: number | null;
}

export interface PreparedLaunch {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  /** Which OS limits are in force for this run (e.g. "bwrap", "seccomp", "cgroup:memory"); recorded with the run. */
  readonly enforced: readonly string[];
  /** Called once the process exists (to move it into a cgroup, say). */
  afterSpawn?(pid: number): void | Promise<void>;
  /** The run exited with code 0: commit what it staged. */
  onSuccess?(): Promise<void>;
  /** The run failed, was killed or timed out: drop what it staged. */
  onFailure?(): Promise<void>;
  /**
   * The run filled its staged-writes limit, or null. Asked before onSuccess: a run that hit it is dropped and fails
   * with a `disk_quota` event, whatever its exit code (a command may ignore ENOSPC and exit 0 with a half-written file).
   */
  diskQuotaHit?(): { limitBytes: number; message: string } | null;
  /** A limit the run ran into, in words ("memory limit of 64 MiB reached"), or null: becomes the run's reason. */
  limitHit?(): string | null;
  /** Always called last, after onSuccess/onFailure. */
  dispose?(): void;
}

export type Launcher = (request: LaunchRequest) => Promise<PreparedLaunch>;

/** No sandbox: the command runs as asked. */
export const plainLauncher: Launcher = async (request) => ({
  argv: request.argv,
  env: request.env,
  cwd: request.cwd,
  enforced: [],
});
