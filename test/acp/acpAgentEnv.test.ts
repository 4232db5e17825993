// The ACP agent's environment and policy pieces without a sandbox: which variables are withheld, what each built-in
// agent's provider variables are, where node's installation is shared from.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildAcpAgentEnv, isWithheldVariable } from '../../src-main/node/acp/acpAgentEnv';
import { nodeInstallDir } from '../../src-main/node/acp/acpSandboxPolicy';

const proxyEnv = { ANTHROPIC_BASE_URL: 'http://127.0.0.1:4100/anthropic', ANTHROPIC_API_KEY: 'omni-proxy-abc' };

test('withheld: provider variables, credential-like names, launcher-owned paths, terminal-host variables', () => {
  for (const name of ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'OPENAI_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY', 'AWS_SECRET_ACCESS_KEY', 'CLAUDE_CODE_OAUTH_TOKEN', 'GITHUB_TOKEN', 'NPM_AUTH', 'DB_PASSWORD', 'HOME', 'PATH', 'NODE_OPTIONS', 'LD_PRELOAD', 'HTTPS_PROXY', 'SSH_AUTH_SOCK', 'TMUX']) {
    assert.equal(isWithheldVariable(name), true, name);
  }
  for (const name of ['DEBUG', 'EDITOR', 'MY_FLAG', 'FORCE_COLOR']) assert.equal(isWithheldVariable(name), false, name);
});

test('each built-in agent gets the proxy URL and dummy key under its own provider names, nothing else of the provider', () => {
  const base = { configHome: '/h/acp/x', requested: { OPENAI_API_KEY: 'users-own', KEEP: '1' }, pathFirst: ['/n/bin'], sandboxed: true, hostEnv: { PATH: '/host/bin', ANTHROPIC_API_KEY: 'users-own' }, hostTmpDir: '/tmp' };
  const claude = buildAcpAgentEnv({ ...base, agentId: 'claude', proxyEnv });
  assert.equal(claude.ANTHROPIC_API_KEY, 'omni-proxy-abc');
  assert.equal(claude.OPENAI_API_KEY, undefined);
  assert.equal(claude.KEEP, '1');
  assert.equal(claude.PATH, '/n/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', 'the host PATH is not the sandbox\'s');
  const codex = buildAcpAgentEnv({ ...base, agentId: 'codex', proxyEnv });
  assert.deepEqual([codex.OPENAI_BASE_URL, codex.OPENAI_API_KEY, codex.ANTHROPIC_API_KEY], ['http://127.0.0.1:4100/anthropic', 'omni-proxy-abc', undefined]);
  assert.equal(codex.CODEX_HOME, '/h/acp/x/.codex');
  const gemini = buildAcpAgentEnv({ ...base, agentId: 'gemini', proxyEnv });
  assert.deepEqual([gemini.GOOGLE_GEMINI_BASE_URL, gemini.GEMINI_API_KEY], ['http://127.0.0.1:4100/anthropic', 'omni-proxy-abc']);
  const none = buildAcpAgentEnv({ ...base, agentId: 'claude', proxyEnv: null, sandboxed: false });
  assert.equal(none.ANTHROPIC_API_KEY, undefined);
  assert.equal(none.IS_SANDBOX, undefined);
  assert.equal(none.PATH, '/n/bin:/host/bin');
});

test("node's installation: nothing under /usr; the folder above bin/, or bin/ alone when that folder holds a secret place", () => {
  assert.equal(nodeInstallDir('/usr/bin/node'), null);
  const dir = mkdtempSync(join(tmpdir(), 'omni-acp-node-'));
  try {
    mkdirSync(join(dir, 'v20', 'bin'), { recursive: true });
    writeFileSync(join(dir, 'v20', 'bin', 'node'), '');
    assert.equal(nodeInstallDir(join(dir, 'v20', 'bin', 'node')), join(dir, 'v20'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // ~/.local/bin/node: ~/.local holds share/keyrings, so only ~/.local/bin.
  const local = join(homedir(), '.local', 'bin');
  if (homedir().startsWith(tmpdir())) {
    mkdirSync(local, { recursive: true });
    writeFileSync(join(local, 'node'), '');
    assert.equal(nodeInstallDir(join(local, 'node')), local);
  }
});
