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
    /** Keyed by terminal id; a plain object so `page.evaluate` can return it as is. */
    __omniTerminalStats?: Record<string, TerminalStats>;
  }
}

export function terminalStats(id: string): TerminalStats {
  const all = (window.__omniTerminalStats ??= {});
  return (all[id] ??= { bytesParsed: 0, frames: 0, floodFramesLimited: false });
}

export function forgetTerminalStats(id: string): void {
  if (window.__omniTerminalStats) delete window.__omniTerminalStats[id];
}
