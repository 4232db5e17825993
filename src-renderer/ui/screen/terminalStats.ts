/** What the benchmark harness and the end-to-end tests read, per terminal id. */
export interface TerminalStats {
  /** Characters xterm has finished parsing. */
  bytesParsed: number;
  /** Frames xterm has drawn. */
  frames: number;
  /** Whether frames are limited while output floods in (floodFrames.ts). */
  floodFramesLimited: boolean;
}

declare global {
  interface Window {
    /** Keyed by terminal id; a plain object so `page.evaluate` can return it as is. Not in a build for users. */
    __omniTerminalStats?: Record<string, TerminalStats>;
  }
}

/**
 * Set by the build (scripts/rendererBundle.mjs): true in development builds and in the bench's production build,
 * false in a build for users, where the minifier then drops every use of window.__omniTerminalStats. Unset where the
 * source runs unbundled (unit tests under tsx), which keeps no hooks either.
 */
declare const __OMNI_BENCH_HOOKS__: boolean | undefined;
const BENCH_HOOKS = typeof __OMNI_BENCH_HOOKS__ !== 'undefined' && __OMNI_BENCH_HOOKS__;

/** Counted into and never read, when the build keeps no hooks: callers need not ask which build they are in. */
const unobserved: TerminalStats = { bytesParsed: 0, frames: 0, floodFramesLimited: false };

export function terminalStats(id: string): TerminalStats {
  if (!BENCH_HOOKS) return unobserved;
  const all = (window.__omniTerminalStats ??= {});
  return (all[id] ??= { bytesParsed: 0, frames: 0, floodFramesLimited: false });
}

export function forgetTerminalStats(id: string): void {
  if (BENCH_HOOKS && window.__omniTerminalStats) delete window.__omniTerminalStats[id];
}
