import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildProcessInvocationSpec, harnessStdio, type HarnessError } from '../../src-main/node/harness';
import { CLAUDE_KEY, harnessDirs, request, writeClaudeTranscript } from './harnessFixtures';
import { mkdirSync } from 'node:fs';

test('trap: Claude Code resumes only from the original cwd: a transcript of another folder is refused, naming that folder', (t) => {
  const dirs = harnessDirs(t);
  const original = join(dirs.root, 'original project');
  mkdirSync(original);
  writeClaudeTranscript(join(dirs.aspHome, 'claude-code', 'config'), original, CLAUDE_KEY);
  assert.throws(
    () => buildProcessInvocationSpec(request('claude-code', dirs, { continuation: { provider: 'anthropic', key: CLAUDE_KEY } }), { uid: 1000 }),
    (error: HarnessError) =>
      error.code === 'HARNESS_RESUME_CWD_MISMATCH' &&
      error.message.includes(`was started in ${original}; it can only be resumed from there`) &&
      error.message.includes(`Resume it with --cwd ${original}`),
  );
  // From the original folder the same key resumes.
  const { spec } = buildProcessInvocationSpec(request('claude-code', dirs, { cwd: original, continuation: { provider: 'anthropic', key: CLAUDE_KEY } }), { uid: 1000 });
  assert.deepEqual(spec.argv, ['claude', '--resume', CLAUDE_KEY, '--permission-mode', 'manual']);
});

test('trap: Claude Code cwd check also uses the origin cwd the host stored beside the key (before any transcript exists)', (t) => {
  const dirs = harnessDirs(t);
  assert.throws(
    () => buildProcessInvocationSpec(request('claude-code', dirs, { continuation: { provider: 'anthropic', key: CLAUDE_KEY } }), { uid: 1000, originCwd: '/srv/elsewhere' }),
    (error: HarnessError) => error.code === 'HARNESS_RESUME_CWD_MISMATCH' && /was started in \/srv\/elsewhere/.test(error.message),
  );
  assert.doesNotThrow(() => buildProcessInvocationSpec(request('claude-code', dirs, { continuation: { provider: 'anthropic', key: CLAUDE_KEY } }), { uid: 1000, originCwd: dirs.workspace }));
});

test('trap: a non-UUID resume id is refused (Codex would silently start a NEW thread, Claude Code would open its picker)', (t) => {
  const dirs = harnessDirs(t);
  for (const key of ['my-thread', '01a208ca313471b3a47d708afa6b536e', ' 01a208ca-3134-71b3-a47d-708afa6b536e', '--last', '']) {
    assert.throws(
      () => buildProcessInvocationSpec(request('codex-cli', dirs, { interactionMode: 'headless', continuation: { provider: 'openai', key } }), { prompt: 'x' }),
      (error: HarnessError) => error.code === 'HARNESS_BAD_CONTINUATION_KEY' && /silently start a NEW thread/.test(error.message),
      key,
    );
  }
  assert.throws(
    () => buildProcessInvocationSpec(request('claude-code', dirs, { continuation: { provider: 'anthropic', key: 'fix-login-bug' } }), { uid: 1000 }),
    (error: HarnessError) => error.code === 'HARNESS_BAD_CONTINUATION_KEY' && /session picker/.test(error.message),
  );
});

test('trap: headless runs never leave stdin open (Codex and claude -p read extra prompt from a non-terminal stdin)', (t) => {
  const dirs = harnessDirs(t);
  for (const frontend of ['codex-cli', 'claude-code'] as const) {
    for (const io of ['pipes', 'inherit'] as const) {
      const { spec } = buildProcessInvocationSpec(request(frontend, dirs, { interactionMode: 'headless', ioMode: io }), { prompt: 'x', uid: 1000 });
      const stdio = harnessStdio(spec);
      assert.equal(stdio.kind === 'spawn' ? stdio.stdio[0] : 'pty', 'ignore', `${frontend} ${io}`);
    }
    // A headless run with no prompt would sit waiting on stdin: refused.
    assert.throws(() => buildProcessInvocationSpec(request(frontend, dirs, { interactionMode: 'headless', ioMode: 'pipes' }), {}), { code: 'HARNESS_PROMPT_REQUIRED' });
  }
  // Interactive over pipes keeps stdin as a pipe: that is how the user's keys arrive.
  const interactive = buildProcessInvocationSpec(request('codex-cli', dirs, { ioMode: 'pipes' })).spec;
  assert.deepEqual(harnessStdio(interactive), { kind: 'spawn', stdio: ['pipe', 'pipe', 'pipe'] });
});

test('trap: the Codex TUI is told not to leave its background daemon (--no-daemon and --disable daemon_auto_start)', (t) => {
  const dirs = harnessDirs(t);
  for (const continuation of [undefined, { provider: 'openai' as const, key: '01a208ca-3134-71b3-a47d-708afa6b536e' }]) {
    const { spec } = buildProcessInvocationSpec(request('codex-cli', dirs, { ...(continuation ? { continuation } : {}) }));
    assert.ok(spec.argv.includes('--no-daemon'), spec.argv.join(' '));
    const at = spec.argv.indexOf('--disable');
    assert.equal(spec.argv[at + 1], 'daemon_auto_start');
  }
});

test('trap: as root, Claude Code never gets a bypass mode; headless falls back to the permission prompt tool', (t) => {
  const dirs = harnessDirs(t);
  const tool = { tool: 'mcp__omni__permission_prompt', mcpConfig: '/x/mcp.json' };
  const root = buildProcessInvocationSpec(request('claude-code', dirs, { interactionMode: 'headless' }), { uid: 0, permissionMode: 'bypass', prompt: 'x', permissionPromptTool: tool });
  const words = root.spec.argv.join(' ');
  assert.doesNotMatch(words, /dangerously-skip-permissions|bypassPermissions/);
  assert.match(words, /--permission-prompt-tool mcp__omni__permission_prompt --mcp-config \/x\/mcp\.json/);
  assert.match(root.warnings!.join('\n'), /running as root: Claude Code refuses to bypass permissions/);
  const rootInteractive = buildProcessInvocationSpec(request('claude-code', dirs), { uid: 0, permissionMode: 'bypass' });
  assert.doesNotMatch(rootInteractive.spec.argv.join(' '), /dangerously-skip-permissions|bypassPermissions/);
  // Not root: bypass is what was asked for.
  const user = buildProcessInvocationSpec(request('claude-code', dirs), { uid: 1000, permissionMode: 'bypass' });
  assert.match(user.spec.argv.join(' '), /--permission-mode bypassPermissions/);
  // Headless without a prompt tool: nobody can answer, so anything that would ask is denied (fail closed).
  const noTool = buildProcessInvocationSpec(request('claude-code', dirs, { interactionMode: 'headless' }), { uid: 0, prompt: 'x' });
  assert.match(noTool.spec.argv.join(' '), /--permission-prompts none/);
});

test('trap: a CODEX_HOME inside the temp folder Codex sees is warned about (Codex then has no sandbox helper and every shell command fails)', (t) => {
  const dirs = harnessDirs(t);
  const tempDir = join(dirs.root, 'tmp');
  // The request's TMPDIR is the temp folder the CLI will see: the harness home under it warns, naming the fix.
  const inside = buildProcessInvocationSpec(request('codex-cli', { ...dirs, aspHome: join(tempDir, 'harness') }, { env: { TMPDIR: tempDir } }), { openaiEndpoint: { baseUrl: 'http://127.0.0.1:1/v1' } });
  const warning = inside.warnings?.find((w) => w.startsWith('CODEX_HOME'));
  assert.ok(warning, JSON.stringify(inside.warnings));
  assert.match(warning, /is inside the temp folder .*\/tmp: Codex does not set up its sandbox helper there/);
  assert.match(warning, /request\.env\.TMPDIR/);
  // A harness home beside it (not under it) does not warn; neither does a folder that only shares the prefix.
  const beside = buildProcessInvocationSpec(request('codex-cli', dirs, { env: { TMPDIR: tempDir } }), { openaiEndpoint: { baseUrl: 'http://127.0.0.1:1/v1' } });
  assert.equal(beside.warnings, undefined);
  const prefix = buildProcessInvocationSpec(request('codex-cli', { ...dirs, aspHome: `${tempDir}2/harness` }, { env: { TMPDIR: tempDir } }), { openaiEndpoint: { baseUrl: 'http://127.0.0.1:1/v1' } });
  assert.equal(prefix.warnings, undefined);
});
