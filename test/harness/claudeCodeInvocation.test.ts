import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildProcessInvocationSpec, harnessStdio, isUuid, type IoMode } from '../../src-main/node/harness';
import { CLAUDE_KEY, harnessDirs, request, writeClaudeTranscript } from './harnessFixtures';

const ioModes: IoMode[] = ['pty', 'pipes', 'inherit'];
/** What every Claude Code run gets so the model endpoint is its only peer. */
const QUIET = { DISABLE_AUTOUPDATER: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL: '1' };

for (const io of ioModes) {
  test(`claude-code interactive over ${io}: TUI argv with a fresh --session-id, the harness home as CLAUDE_CONFIG_DIR`, (t) => {
    const dirs = harnessDirs(t);
    const { spec } = buildProcessInvocationSpec(request('claude-code', dirs, { ioMode: io }), { uid: 1000 });
    const key = spec.continuation?.key;
    assert.ok(key !== undefined && isUuid(key), 'a new conversation gets its key up front');
    assert.deepEqual(spec.argv, ['claude', '--session-id', key, '--permission-mode', 'manual']);
    assert.equal(spec.cwd, dirs.workspace);
    const configDir = join(dirs.aspHome, 'claude-code', 'config');
    assert.deepEqual(spec.env, { CLAUDE_CONFIG_DIR: configDir, ...QUIET });
    assert.equal(spec.interactionMode, 'interactive');
    assert.equal(spec.ioMode, io);
    assert.deepEqual(harnessStdio(spec).kind, io === 'pty' ? 'pty' : 'spawn');
  });

  test(`claude-code headless over ${io}: -p stream-json --verbose, prompt after --, stdin closed`, (t) => {
    const dirs = harnessDirs(t);
    const { spec, warnings } = buildProcessInvocationSpec(request('claude-code', dirs, { ioMode: io, interactionMode: 'headless', model: 'sonnet' }), {
      prompt: '-starts with a dash',
      uid: 1000,
      permissionPromptTool: { tool: 'mcp__omni__permission_prompt', mcpConfig: '/x/mcp.json' },
    });
    const key = spec.continuation!.key!;
    assert.deepEqual(spec.argv, [
      'claude', '-p', '--output-format', 'stream-json', '--verbose', '--session-id', key, '--model', 'sonnet', '--permission-mode', 'manual',
      '--permission-prompt-tool', 'mcp__omni__permission_prompt', '--mcp-config', '/x/mcp.json', '--', '-starts with a dash',
    ]);
    assert.equal(warnings, undefined);
    const stdio = harnessStdio(spec);
    if (io === 'pty') assert.deepEqual(stdio, { kind: 'pty' });
    else assert.equal(stdio.kind === 'spawn' && stdio.stdio[0], 'ignore');
  });

  test(`claude-code over ${io} with a continuation whose transcript exists: --resume <key>`, (t) => {
    const dirs = harnessDirs(t);
    writeClaudeTranscript(join(dirs.aspHome, 'claude-code', 'config'), dirs.workspace, CLAUDE_KEY);
    for (const mode of ['interactive', 'headless'] as const) {
      const { spec } = buildProcessInvocationSpec(
        request('claude-code', dirs, { ioMode: io, interactionMode: mode, continuation: { provider: 'anthropic', key: CLAUDE_KEY } }),
        { prompt: 'go on', uid: 1000, permissionPromptTool: { tool: 'mcp__omni__ask', mcpConfig: '{}' } },
      );
      assert.deepEqual(spec.continuation, { provider: 'anthropic', key: CLAUDE_KEY });
      const at = spec.argv.indexOf('--resume');
      assert.ok(at > 0, spec.argv.join(' '));
      assert.equal(spec.argv[at + 1], CLAUDE_KEY);
      assert.ok(!spec.argv.includes('--session-id'));
      assert.deepEqual(spec.argv.slice(-2), ['--', 'go on']);
    }
  });
}

test('claude-code: a known key with no transcript yet starts that conversation under the same id (app closed before the first answer)', (t) => {
  const dirs = harnessDirs(t);
  const { spec, warnings } = buildProcessInvocationSpec(request('claude-code', dirs, { continuation: { provider: 'anthropic', key: CLAUDE_KEY } }), { uid: 1000 });
  assert.deepEqual(spec.argv, ['claude', '--session-id', CLAUDE_KEY, '--permission-mode', 'manual']);
  assert.match(warnings!.join('\n'), /no Claude Code transcript for session .* starting that conversation fresh under the same id/);
});

test('claude-code: the harness home pre-answers onboarding and workspace trust, keeping what the CLI wrote', (t) => {
  const dirs = harnessDirs(t);
  buildProcessInvocationSpec(request('claude-code', dirs), { uid: 1000 });
  const file = join(dirs.aspHome, 'claude-code', 'config', '.claude.json');
  const first = JSON.parse(readFileSync(file, 'utf8'));
  assert.equal(first.hasCompletedOnboarding, true);
  assert.deepEqual(first.projects[dirs.workspace], { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true });
  // The CLI adds its own keys; a second build keeps them.
  const withCliKeys = { ...first, userID: 'abc', projects: { ...first.projects, [dirs.workspace]: { ...first.projects[dirs.workspace], allowedTools: ['Read'] } } };
  writeFileSync(file, JSON.stringify(withCliKeys));
  buildProcessInvocationSpec(request('claude-code', dirs), { uid: 1000 });
  const second = JSON.parse(readFileSync(file, 'utf8'));
  assert.equal(second.userID, 'abc');
  assert.deepEqual(second.projects[dirs.workspace].allowedTools, ['Read']);
  assert.equal(second.projects[dirs.workspace].hasTrustDialogAccepted, true);
});

test('claude-code: "ask" is --permission-mode manual, said explicitly (2.1.330 defaults the TUI to auto mode, where the model judges its own tool calls)', (t) => {
  const dirs = harnessDirs(t);
  const { spec } = buildProcessInvocationSpec(request('claude-code', dirs), { uid: 1000, permissionMode: 'ask' });
  assert.deepEqual(spec.argv.slice(-2), ['--permission-mode', 'manual']);
});

test('claude-code: the ANTHROPIC_API_KEY the host passes is pre-approved by its last 20 characters, as Claude Code stores the answer', (t) => {
  const dirs = harnessDirs(t);
  const standIn = 'omni-proxy-handle-0123456789abcdefghij';
  buildProcessInvocationSpec(request('claude-code', dirs, { env: { ANTHROPIC_API_KEY: standIn } }), { uid: 1000 });
  const file = join(dirs.aspHome, 'claude-code', 'config', '.claude.json');
  const state = JSON.parse(readFileSync(file, 'utf8'));
  assert.deepEqual(state.customApiKeyResponses, { approved: [standIn.slice(-20)], rejected: [] });
  assert.doesNotMatch(readFileSync(file, 'utf8'), new RegExp(standIn.slice(0, 20)), 'only the tail is stored');
  // Idempotent: building again does not add it twice.
  buildProcessInvocationSpec(request('claude-code', dirs, { env: { ANTHROPIC_API_KEY: standIn } }), { uid: 1000 });
  assert.equal(JSON.parse(readFileSync(file, 'utf8')).customApiKeyResponses.approved.length, 1);
});

test("claude-code with useUserConfig: no CLAUDE_CONFIG_DIR, nothing written in the user's ~/.claude", (t) => {
  const dirs = harnessDirs(t);
  const userHome = join(dirs.root, 'user');
  const { spec, warnings } = buildProcessInvocationSpec(request('claude-code', dirs), { useUserConfig: true, userHome, uid: 1000 });
  assert.deepEqual(spec.env, QUIET);
  assert.equal(existsSync(join(userHome, '.claude')), false);
  assert.equal(existsSync(join(dirs.aspHome, 'claude-code')), false);
  assert.match(warnings!.join('\n'), /user's own Claude Code config/);
});

test('claude-code: instructions and acceptEdits map to --append-system-prompt and --permission-mode', (t) => {
  const dirs = harnessDirs(t);
  const { spec } = buildProcessInvocationSpec(request('claude-code', dirs, { spec: { instructions: 'Be brief.' } }), { uid: 1000, permissionMode: 'acceptEdits', prompt: 'hi' });
  const key = spec.continuation!.key!;
  assert.deepEqual(spec.argv, ['claude', '--session-id', key, '--append-system-prompt', 'Be brief.', '--permission-mode', 'acceptEdits', '--', 'hi']);
});
