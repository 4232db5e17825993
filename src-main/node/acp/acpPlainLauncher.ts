import { spawn } from 'node:child_process';
import { addDescendants, isAlive, readProcTable, signalQuietly } from '../base/processTable';
import { AcpError } from './acpError';
import type { AcpAgentProcess, AcpLaunchRequest, AcpProcessLauncher } from './acpProcess';

/** How long the tree gets between SIGTERM and SIGKILL. */
const KILL_GRACE_MS = 2000;

/**
 * Starts the agent directly (no sandbox), in a process group of its own so that stopping it stops everything it
 * started: kill() signals the group and every descendant that left it (found in /proc while the agent still lives),
 * SIGTERM first, SIGKILL for what is left after a grace period.
 */
export class AcpPlainLauncher implements AcpProcessLauncher {
  async launch(request: AcpLaunchRequest): Promise<AcpAgentProcess> {
    const { agent, workspace } = request;
    const child = spawn(agent.command, agent.args, {
      cwd: workspace,
      env: { ...request.env, ...agent.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    // 'spawn' or 'error' (ENOENT, EACCES) comes first.
    const started = await new Promise<NodeJS.ErrnoException | null>((resolve) => {
      child.once('spawn', () => resolve(null));
      child.once('error', (error) => resolve(error));
    });
    if (started !== null) {
      throw new AcpError('ACP_AGENT_MISSING', `the ${agent.name} agent's program ${agent.command} could not be started (${started.code ?? started.message}); check that it is installed and executable`, { cause: started });
    }
    const pid = child.pid!;
    // Writes to a gone agent fail with EPIPE on stdin: the connection notices the exit instead.
    child.stdin.on('error', () => {});
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => {
      child.once('exit', (code, signal) => resolve({ code, signal }));
    });
    let alive = true;
    void exited.then(() => {
      alive = false;
    });
    let killing: Promise<void> | undefined;
    const kill = (): Promise<void> => {
      killing ??= (async () => {
        const tree = new Set<number>([pid]);
        const table = readProcTable();
        for (const entry of table) if (entry.pgid === pid) tree.add(entry.pid);
        addDescendants(table, tree);
        signalQuietly(-pid, 'SIGTERM');
        for (const member of tree) signalQuietly(member, 'SIGTERM');
        const deadline = Date.now() + KILL_GRACE_MS;
        while (Date.now() < deadline && [...tree].some((p) => (p === pid ? alive : isAlive(p)))) await delay(50);
        signalQuietly(-pid, 'SIGKILL');
        for (const member of tree) if (member === pid ? alive : isAlive(member)) signalQuietly(member, 'SIGKILL');
        await exited;
      })();
      return killing;
    };
    return { stdin: child.stdin, stdout: child.stdout, stderr: child.stderr, pid, sandboxed: false, exited, kill };
  }
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
