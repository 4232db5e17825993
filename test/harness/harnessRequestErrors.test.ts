import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildProcessInvocationSpec, type HarnessError } from '../../src-main/node/harness';
import { formatDisplayCommand } from '../../src-main/node/harness/displayCommand';
import { harnessDirs, request } from './harnessFixtures';

test('cwd must be an absolute, existing directory', (t) => {
  const dirs = harnessDirs(t);
  assert.throws(() => buildProcessInvocationSpec(request('claude-code', dirs, { cwd: 'my workspace' })), (error: HarnessError) => error.code === 'HARNESS_CWD_NOT_ABSOLUTE' && /must be an absolute path/.test(error.message));
  assert.throws(() => buildProcessInvocationSpec(request('codex-cli', dirs, { cwd: join(dirs.root, 'nope') })), (error: HarnessError) => error.code === 'HARNESS_CWD_MISSING' && /is not an existing directory/.test(error.message));
  const file = join(dirs.root, 'file.txt');
  writeFileSync(file, '');
  assert.throws(() => buildProcessInvocationSpec(request('codex-cli', dirs, { cwd: file })), { code: 'HARNESS_CWD_MISSING' });
  assert.throws(() => buildProcessInvocationSpec(request('codex-cli', dirs, { aspHome: 'relative/home' })), { code: 'HARNESS_CWD_NOT_ABSOLUTE' });
  // A trailing slash or ./ segments are normalized, so the trust entry matches the folder the CLI sees.
  const { spec } = buildProcessInvocationSpec(request('codex-cli', dirs, { cwd: `${dirs.workspace}/./` }));
  assert.equal(spec.cwd, dirs.workspace);
});

test('env is a delta: terminal-host variables are dropped with a warning, bad entries refused', (t) => {
  const dirs = harnessDirs(t);
  const env = { TMUX: '/tmp/tmux-0/default,1,0', TMUX_PANE: '%1', STY: '1.pts', ZELLIJ_SESSION_NAME: 'z', WEZTERM_PANE: '3', TERM_PROGRAM: 'tmux', ANTHROPIC_BASE_URL: 'http://127.0.0.1:4000' };
  const { spec, warnings } = buildProcessInvocationSpec(request('claude-code', dirs, { env }), { uid: 1000 });
  assert.deepEqual(Object.keys(spec.env).sort(), ['ANTHROPIC_BASE_URL', 'CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC', 'CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL', 'CLAUDE_CONFIG_DIR', 'DISABLE_AUTOUPDATER']);
  assert.equal(warnings!.filter((w) => /terminal-host variables/.test(w)).length, 6);
  // Not the host's own environment either: only what the harness needs.
  assert.equal(spec.env.PATH, undefined);
  assert.throws(() => buildProcessInvocationSpec(request('codex-cli', dirs, { env: { 'A=B': 'x' } })), { code: 'HARNESS_BAD_ENV' });
});

test('modes outside the spec are refused', (t) => {
  const dirs = harnessDirs(t);
  assert.throws(() => buildProcessInvocationSpec(request('codex-cli', dirs, { interactionMode: 'nonInteractive' as 'headless' })), { code: 'HARNESS_UNSUPPORTED_MODE' });
  assert.throws(() => buildProcessInvocationSpec(request('codex-cli', dirs, { ioMode: 'tmux' as 'pty' })), { code: 'HARNESS_UNSUPPORTED_MODE' });
});

test('displayCommand is a quoted copy/paste aid that reads back as the argv, with credentials redacted', (t) => {
  const dirs = harnessDirs(t);
  const { spec } = buildProcessInvocationSpec(request('codex-cli', dirs, { interactionMode: 'headless', env: { OPENAI_API_KEY: 'sk-live-123' } }), { prompt: "it's $HOME; `rm -rf`" });
  const display = spec.displayCommand!;
  assert.ok(display.startsWith(`cd '${dirs.workspace}' && CODEX_HOME=${join(dirs.aspHome, 'codex-cli', 'home')} OPENAI_API_KEY=<redacted> codex exec`), display);
  assert.ok(display.endsWith(`-- 'it'\\''s $HOME; \`rm -rf\`'`), display);
  assert.doesNotMatch(display, /sk-live-123/);
  // A real POSIX shell reads the quoted words back as exactly the argv.
  const words = formatDisplayCommand(spec.argv, spec.cwd, {}).split(' && ')[1];
  const readBack = execFileSync('/bin/sh', ['-c', `set -- ${words}; printf '%s\\0' "$@"`], { encoding: 'utf8' });
  assert.deepEqual(readBack.split('\0').slice(0, -1), spec.argv);
});
