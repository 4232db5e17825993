import type { RunStatus } from '../../../src-preload/contract';
import type { OmniClient } from '../../bridge/connectionStore';
import { useRuns } from './runsStore';

/** Starts a command as the user in the session (the shell tool's spawn) and opens its card. Returns the run id. */
export async function spawnRun(client: OmniClient, sessionId: string, command: string, pty: boolean): Promise<string> {
  const result = await client.call('exec.shell', { action: 'spawn', command, session_id: sessionId, pty });
  if (result.action !== 'spawn') throw new Error(`the host answered spawn with "${result.action}"`);
  useRuns.getState().openCard(sessionId, result.run_id);
  // The run changes stream brings the new run too; listing once more makes the card independent of that timing.
  void client
    .call('exec.runs', { sessionId })
    .then((runs) => useRuns.getState().mergeRuns(sessionId, runs))
    .catch(() => undefined);
  return result.run_id;
}

/** Stops the run's whole process tree; the run's status comes back through the run changes stream too. */
export async function killRun(client: OmniClient, runId: string): Promise<RunStatus> {
  const result = await client.call('exec.shell', { action: 'kill', run_id: runId });
  if (result.action !== 'kill') throw new Error(`the host answered kill with "${result.action}"`);
  return result.status;
}

/** Types into a PTY run: text and named keys (Enter, Tab, C-c, Up, ...), in order. */
export async function sendKeys(client: OmniClient, runId: string, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await client.call('exec.shell', { action: 'send_keys', run_id: runId, keys });
}
