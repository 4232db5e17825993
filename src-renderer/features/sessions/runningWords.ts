import type { SessionRunning } from '../../../src-preload/contract';

const NOUNS: [keyof SessionRunning, string, string][] = [
  ['terminals', 'terminal', 'terminals'],
  ['runs', 'run', 'runs'],
  ['agents', 'agent', 'agents'],
];

/** How many things run, in all. */
export const runningTotal = (running: SessionRunning): number => running.terminals + running.runs + running.agents;

/**
 * What runs in a session, in a sentence: "2 terminals and 1 run are still running". Empty when nothing runs (the
 * session then closes without asking).
 */
export function runningSentence(running: SessionRunning): string {
  const parts = NOUNS.filter(([key]) => running[key] > 0).map(([key, one, many]) => `${running[key]} ${running[key] === 1 ? one : many}`);
  if (parts.length === 0) return '';
  const list = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
  const plural = parts.length > 1 || runningTotal(running) > 1;
  return `${list} ${plural ? 'are' : 'is'} still running`;
}
