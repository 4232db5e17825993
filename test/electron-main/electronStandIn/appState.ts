/**
 * What the stand-in's modules share about the app: whether it is ready (several Electron methods work only after
 * `ready`, others only before), whether it is quitting, and the hooks app.ts needs from modules it cannot import
 * without a cycle.
 */
export const appState = {
  ready: false,
  quitting: false,
  /** Closes every window for app.quit(); false when one of them refused ('close' prevented). Set by browserWindow.ts. */
  closeAllWindows: (): boolean => true,
  /** Awaited (briefly) before the process exits, e.g. by the test driver to flush its last messages. */
  beforeExit: [] as Array<() => Promise<void>>,
};

export function requireReady(what: string): void {
  if (!appState.ready) throw new Error(`${what} can only be used after the app is ready (the stand-in follows Electron here).`);
}

/** Electron's preventable event object, as far as the shell uses it. */
export interface StandInEvent {
  defaultPrevented: boolean;
  preventDefault(): void;
}

export function preventableEvent(): StandInEvent {
  return {
    defaultPrevented: false,
    preventDefault() {
      this.defaultPrevented = true;
    },
  };
}
