/** Thrown inside a goal run once its AbortSignal fired (the user pressed Halt): the loop unwinds and records "halted". */
export class RunHaltedError extends Error {
  constructor() {
    super('the goal run was halted');
    this.name = 'RunHaltedError';
  }
}

export function throwIfHalted(signal: AbortSignal): void {
  if (signal.aborted) throw new RunHaltedError();
}

/** Waits `ms`, or throws RunHaltedError as soon as the signal fires. */
export function haltableDelay(ms: number, signal: AbortSignal): Promise<void> {
  throwIfHalted(signal);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new RunHaltedError());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

