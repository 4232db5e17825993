import { after, before } from 'node:test';
import { buildShell, isAlive, makeHomes, startApp, type AppProcess, type ShellBuild } from './shellHarness';

export interface ShellApps {
  /** A fresh app home and user home, removed after the file's tests. */
  homes(): ReturnType<typeof makeHomes>;
  /** Starts the shell on `home` as an app process, killed after the file's tests if still running. */
  start(home: string, userHome: string): AppProcess;
}

/** One shell build for the test file (its `before`), and every home and app it made cleaned up in its `after`. */
export function useShellApps(): ShellApps {
  let shell: ShellBuild | undefined;
  const cleanups: Array<() => void> = [];
  before(async () => {
    shell = await buildShell();
  });
  after(() => {
    cleanups.forEach((cleanup) => cleanup());
    shell?.dispose();
  });
  return {
    homes() {
      const made = makeHomes();
      cleanups.push(() => made.dispose());
      return made;
    },
    start(home, userHome) {
      if (!shell) throw new Error('useShellApps: start() runs inside a test, after the shell is built');
      const app = startApp(shell, home, userHome);
      cleanups.push(() => app.kill());
      return app;
    },
  };
}

/** The pids of `pids` still alive after waiting up to `withinMs` for them to go. */
export async function stillAlive(pids: number[], withinMs = 5_000): Promise<number[]> {
  const deadline = Date.now() + withinMs;
  while (pids.some(isAlive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  return pids.filter(isAlive);
}
