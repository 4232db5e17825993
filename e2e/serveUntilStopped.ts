import type { RunningServer } from '../src-main/server/server';

/**
 * What an e2e host main does once its server runs: prints the ready line the specs wait for (hostProcess.ts
 * waitForReadyLine), and closes the server on SIGTERM or SIGINT (stopHost's gentle stop), once.
 */
export function serveUntilStopped(server: RunningServer): void {
  console.log(`Omniscient Shell ready at ${server.url}`);
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    void server.close().then(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
