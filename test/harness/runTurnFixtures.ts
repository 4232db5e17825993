// Shared pieces of the runTurnNonInteractive tests: a workspace and harness home per test, a request builder that
// records the events it is given, and where the test-only Agent SDK lives.
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { BaseEvent, RunTurnNonInteractiveRequest } from '../../src-main/node/harness';
import { tempDir } from '../helpers';

/** Installed by scripts/install-harness-clis.mjs (test-only, never a dependency of the app). */
export const agentSdkDir = resolve(__dirname, '../../.cache/harness-clis/node_modules/@anthropic-ai/claude-agent-sdk');
export const skipWithoutAgentSdk = existsSync(join(agentSdkDir, 'package.json')) ? false : 'run `node scripts/install-harness-clis.mjs` first (installs the Agent SDK)';

/** The stand-in key the credential proxy would hand out; the mocks record what they received. */
export const PROXY_KEY = 'omni-proxy-test-0123456789abcdef';

export function turnDirs(t: { after: (fn: () => void) => void }): { root: string; workspace: string; aspHome: string } {
  const dir = tempDir('run-turn');
  t.after(dir.cleanup);
  const workspace = join(dir.path, 'workspace');
  mkdirSync(workspace);
  return { root: dir.path, workspace, aspHome: join(dir.path, 'home', 'harness') };
}

/** A request whose events land in the returned array. */
export function turnRequest(
  frontend: 'agent-sdk' | 'pi-sdk',
  dirs: { workspace: string; aspHome: string },
  prompt: string,
  extra: Partial<RunTurnNonInteractiveRequest> = {},
): { request: RunTurnNonInteractiveRequest; events: BaseEvent[] } {
  const events: BaseEvent[] = [];
  const request: RunTurnNonInteractiveRequest = {
    cpSessionId: 'cps_1',
    runId: `run_${prompt.length}`,
    aspHome: dirs.aspHome,
    spec: {},
    frontend,
    cwd: dirs.workspace,
    prompt,
    callbacks: { onEvent: (event) => events.push(event) },
    ...extra,
  };
  return { request, events };
}

/** The `type` of each event's payload, in order. */
export function payloadTypes(events: BaseEvent[]): string[] {
  return events.map((event) => String((event.payload as { type?: unknown }).type));
}

/** A promise and its resolver, for scripts that hold the model's answer until a test lets it go. */
export function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}
