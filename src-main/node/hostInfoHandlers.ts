import { homedir } from 'node:os';
import type { hostContract } from '../../src-preload/contract/host';
import type { Handlers } from '../../src-preload/rpc';

/** `host.info`: which host the UI talks to, where its data lives, and a sensible default folder for a workspace. */
export function createHostInfoHandlers({ home, version }: { home: string; version: string }): Handlers<typeof hostContract> {
  const startedAt = Date.now();
  return {
    'host.info': () => ({ version, home, pid: process.pid, startedAt, platform: process.platform, userHome: homedir() }),
  };
}
