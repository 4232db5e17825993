import { EventEmitter } from 'node:events';

/**
 * What the stand-in saw the shell do that a test may want to know about (a utility process forked or gone, a window
 * focused, an error box shown, a link handed to the system browser...). The app process's test driver forwards
 * every one of them to the test.
 */
export type StandInRecord =
  | { kind: 'utility-fork'; pid: number; modulePath: string; serviceName?: string }
  | { kind: 'utility-exit'; pid: number; code: number }
  | { kind: 'window-call'; windowId: number; method: string }
  | { kind: 'port-posted'; contentsId: number; routingId: number; channel: string; ports: number }
  | { kind: 'dialog'; title: string; content: string }
  | { kind: 'open-external'; url: string }
  | { kind: 'second-instance'; argv: string[] }
  | { kind: 'app-quit'; exitCode: number };

class StandInEvents extends EventEmitter {
  readonly records: StandInRecord[] = [];

  record(record: StandInRecord): void {
    this.records.push(record);
    this.emit('record', record);
  }
}

export const standInEvents = new StandInEvents();
