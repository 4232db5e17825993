import type { RunStatus } from '../../../src-preload/contract';
import type { OmniClient } from '../../bridge/connectionStore';
import { useRuns } from './runsStore';

/** Starts a command as the user in the session and opens its card. Returns the run id. */
export async function spawnRun(client: OmniClient, sessionId: string, command: string, pty: boolean): Promise<string> {
  const { runId } = await client.call('exec.spawn', { sessionId, command, pty });
  useRuns.getState().openCard(sessionId, runId);
  // The live run list (exec.watchRuns) brings the new run too; listing once more makes the card independent of that timing.
  void client
    .call('exec.runs', { sessionId })
    .then((runs) => useRuns.getState().mergeRuns(sessionId, runs))
    .catch(() => undefined);
  return runId;
}

/** Stops the run's whole process tree; the run's status comes back through the live run list too. */
export async function killRun(client: OmniClient, runId: string): Promise<RunStatus> {
  return (await client.call('exec.kill', { runId })).status;
}

/** Types into a PTY run: text and named keys (Enter, Tab, C-c, Up, ...), in order. */
export async function sendKeys(client: OmniClient, runId: string, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await client.call('exec.sendKeys', { runId, keys });
}
