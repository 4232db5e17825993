// The real Claude Code ACP adapter (claude-agent-acp, installed by scripts/install-acp-agents.mjs into
// .cache/acp-agents) started in the native sandbox through the launcher: it must run on node inside the sandbox from
// its read-only install folder and answer `initialize`, then open a session (which starts Claude Code itself under
// the adapter, with the config home as its only writable place besides the workspace). Skipped, saying why, when
// the adapter is not installed. Run with HOME set to a temp dir.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, describe, it } from 'node:test';
import { BUILTIN_ACP_AGENTS } from '../../src-main/node/acp/acpBuiltinAgents';
import type { AcpAgentProcess } from '../../src-main/node/acp/acpProcess';
import { createAcpSandboxLauncher } from '../../src-main/node/acp/acpSandboxLauncher';
import { createNativeSandbox } from '../../src-main/node/sandbox/native/nativeSandbox';

const adapterDir = join(__dirname, '..', '..', '.cache', 'acp-agents');
const claude = BUILTIN_ACP_AGENTS.find((agent) => agent.id === 'claude')!;
const installed = existsSync(join(adapterDir, 'node_modules', '.bin', claude.command));
const home = homedir();
const skip = !installed
  ? `the adapter is not installed (${join(adapterDir, 'node_modules', '.bin', claude.command)}): run node scripts/install-acp-agents.mjs`
  : !realpathSync(home).startsWith(realpathSync(tmpdir()))
    ? `HOME (${home}) is not a temp dir: run with HOME=$(mktemp -d)`
    : false;

type RpcAnswer = { id?: number; result?: Record<string, unknown>; error?: { message: string } };

function rpc(agent: AcpAgentProcess) {
  let next = 1;
  const waiting = new Map<number, (answer: RpcAnswer) => void>();
  let stderr = '';
  agent.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  createInterface({ input: agent.stdout }).on('line', (line) => {
    let message: RpcAnswer;
    try {
      message = JSON.parse(line) as RpcAnswer;
    } catch {
      return; // not ours to judge here
    }
    if (typeof message.id === 'number' && waiting.has(message.id)) {
      waiting.get(message.id)!(message);
      waiting.delete(message.id);
    }
  });
  return {
    stderr: () => stderr,
    call(method: string, params: unknown, timeoutMs = 60_000): Promise<RpcAnswer> {
      const id = next++;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no answer to ${method} in ${timeoutMs} ms; stderr: ${stderr.slice(-2000)}`)), timeoutMs);
        waiting.set(id, (answer) => {
          clearTimeout(timer);
          resolve(answer);
        });
        agent.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      });
    },
  };
}

describe('the real Claude Code ACP adapter in the native sandbox', { skip }, () => {
  const appHome = join(home, '.omniscient-shell');
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'omni-acp-real-')));
  const sandbox = createNativeSandbox({ appHome });
  after(() => {
    sandbox.dispose();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('starts on node from its read-only install folder and completes initialize and session/new over stdio', async () => {
    const launcher = createAcpSandboxLauncher({ sandbox, appHome, adapterDirs: [adapterDir] });
    const started = Date.now();
    const agent = await launcher.launch({ agent: claude, sessionId: 'ses_realAdapter001', workspace, env: {} });
    const client = rpc(agent);
    try {
      assert.equal(agent.sandboxed, true);
      const init = await client.call('initialize', { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false } });
      console.log(`  initialize answered after ${Date.now() - started} ms`);
      assert.equal(init.error, undefined, JSON.stringify(init.error));
      assert.equal(init.result?.protocolVersion, 1, JSON.stringify(init));
      assert.ok(init.result?.agentCapabilities, JSON.stringify(init));
      const session = await client.call('session/new', { cwd: workspace, mcpServers: [] });
      console.log(`  session/new answered after ${Date.now() - started} ms: ${JSON.stringify(session.error ?? Object.keys(session.result ?? {}))}`);
      assert.equal(session.error, undefined, `${JSON.stringify(session.error)}\n${client.stderr().slice(-2000)}`);
      assert.equal(typeof session.result?.sessionId, 'string');
      // What the adapter (and Claude Code under it) keeps lands in its config home, not in the user's ~/.claude.
      assert.equal(existsSync(join(home, '.claude')), false);
      assert.ok(readdirSync(join(appHome, 'acp', 'claude')).includes('.claude'), 'Claude Code kept its state in <home>/acp/claude/.claude');
    } finally {
      await agent.kill();
    }
    const exit = await agent.exited;
    assert.ok(exit.code !== null || exit.signal !== null);
  });
});
