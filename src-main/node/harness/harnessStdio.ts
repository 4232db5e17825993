import type { ProcessInvocationSpec } from './types';

/** How the host wires a harness's standard streams: a PTY, or Node's spawn stdio triple. */
export type HarnessStdio = { kind: 'pty' } | { kind: 'spawn'; stdio: ['ignore' | 'pipe' | 'inherit', 'pipe' | 'inherit', 'pipe' | 'inherit'] };

/**
 * The spec's ProcessInvocationSpec has no stdin field, but the CLIs care: headless `codex exec` and `claude -p`
 * append whatever arrives on a non-terminal stdin to the prompt, and wait for its end before starting. A
 * headless run therefore gets stdin closed ('ignore' = /dev/null), whatever the io mode; only an interactive run
 * reads the user's keys.
 */
export function harnessStdio(spec: Pick<ProcessInvocationSpec, 'interactionMode' | 'ioMode'>): HarnessStdio {
  if (spec.ioMode === 'pty') return { kind: 'pty' };
  const stdin = spec.interactionMode === 'interactive' ? (spec.ioMode === 'inherit' ? 'inherit' : 'pipe') : 'ignore';
  const out = spec.ioMode === 'inherit' ? 'inherit' : 'pipe';
  return { kind: 'spawn', stdio: [stdin, out, out] };
}
