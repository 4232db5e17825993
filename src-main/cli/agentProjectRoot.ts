import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The project folder whose AssemblyScript and agent SDK build user agents: two levels up from this code both in the
 * sources (src-main/cli) and in the built CLI (dist/cli).
 */
export function agentProjectRoot(): string {
  const root = join(__dirname, '..', '..');
  if (!existsSync(join(root, 'agents', 'sdk', 'compileAgent.mjs'))) {
    throw new Error(`the agent SDK is not where this omni expects it (${join(root, 'agents', 'sdk')}); run omni from its project folder's build`);
  }
  return root;
}
