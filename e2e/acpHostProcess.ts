import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { waitForReadyLine, type HostProcess } from './hostProcess';

const root = join(__dirname, '..');

/**
 * Lists the scripted fake ACP agent (test/acp/fakeAcpAgent.ts) in `<home>/acp-agents.json` as the user's agent
 * `id`, playing `scenario`.
 */
export function writeFakeAcpAgent(home: string, id: string, scenario: string): void {
  // Absolute: the agent runs in its workspace, where `--import tsx` would not resolve.
  const tsx = pathToFileURL(join(root, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
  const agent = { id, name: `Fake agent (${scenario})`, command: process.execPath, args: ['--import', tsx, join(root, 'test/acp/fakeAcpAgent.ts')], env: { FAKE_ACP_SCENARIO: scenario } };
  writeFileSync(join(home, 'acp-agents.json'), JSON.stringify({ schema_version: 1, agents: [agent] }));
}

/** Starts the ACP e2e host (acpHostMain.ts: ACP agents through the plain launcher) on `port` and `home`. */
export function startAcpHost(port: number, home: string, userHome: string, timeoutMs = 30_000): Promise<HostProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'e2e/acpHostMain.ts'), String(port), home], {
    cwd: root,
    env: { ...process.env, HOME: userHome, OMNI_HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return waitForReadyLine(child, timeoutMs, () => child.kill('SIGKILL'));
}
