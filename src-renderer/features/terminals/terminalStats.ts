/** What the benchmark harness reads: characters xterm has finished parsing, per terminal id. */
export interface TerminalStats {
  bytesParsed: number;
}

declare global {
  interface Window {
    /** Keyed by terminal id; a plain object so `page.evaluate` can return it as is. */
    __omniTerminalStats?: Record<string, TerminalStats>;
  }
}

export function terminalStats(id: string): TerminalStats {
  const all = (window.__omniTerminalStats ??= {});
  return (all[id] ??= { bytesParsed: 0 });
}

export function forgetTerminalStats(id: string): void {
  if (window.__omniTerminalStats) delete window.__omniTerminalStats[id];
}
