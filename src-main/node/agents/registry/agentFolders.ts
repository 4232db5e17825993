import { join } from 'node:path';

/** Where a home keeps the user's agents: one folder per agent, each with its manifest.toml. */
export function userAgentsDir(home: string): string {
  return join(home, 'agents');
}
