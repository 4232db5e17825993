import type { Readable, Writable } from 'node:stream';
import type { AcpAgentEntry } from './acpAgentEntry';

export type { AcpAgentEntry } from './acpAgentEntry';

/** What a launch needs: the agent to run, the Omniscient session it serves, the folder it works in, its environment. */
export interface AcpLaunchRequest {
  agent: AcpAgentEntry;
  sessionId: string;
  /** Absolute path of the workspace; the agent's working directory. */
  workspace: string;
  /** The full environment of the agent process (the launcher adds nothing secret of its own). */
  env: Record<string, string>;
}

/** A running agent process: ACP goes over stdin/stdout, stderr is diagnostics only. */
export interface AcpAgentProcess {
  stdin: Writable;
  stdout: Readable;
  stderr: Readable;
  pid: number;
  /** Whether the process runs inside the native sandbox. */
  sandboxed: boolean;
  /** Settles once the process has exited (never rejects). */
  exited: Promise<{ code: number | null; signal: string | null }>;
  /** Stops the process and everything it started (its whole tree); resolves once they are gone. Idempotent. */
  kill(): Promise<void>;
}

/**
 * Starts agent processes. The plain launcher (acpPlainLauncher.ts) spawns directly; the sandboxed one
 * (acpSandboxLauncher.ts) starts the agent inside the native sandbox. A launch that cannot start the program at all
 * (missing binary, not executable) rejects with an `AcpError` of code `ACP_AGENT_MISSING`.
 */
export interface AcpProcessLauncher {
  launch(request: AcpLaunchRequest): Promise<AcpAgentProcess>;
}
