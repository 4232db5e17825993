import { RUN_MARKER } from './runProcesses';

/**
 * What a run's command sees of the host's environment: the user's, minus the host's own plumbing (OMNI_*,
 * ELECTRON_*, npm_*), plus the run's mark (runProcesses.ts), so every process of the run can be found and ended.
 * The native sandbox narrows this further for agent runs.
 */
export function runEnvironment(runId: string, pty: boolean): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || key.startsWith('OMNI_') || key.startsWith('ELECTRON_') || key.startsWith('npm_')) continue;
    env[key] = value;
  }
  if (pty) {
    env.TERM = 'xterm-256color';
    env.COLORTERM = 'truecolor';
  }
  env[RUN_MARKER] = runId;
  return env;
}
