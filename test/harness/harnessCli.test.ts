import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { tempDir } from '../helpers';
import { omniCli } from '../omniCli';

const cli = omniCli();

function omni(home: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [cli, ...args, '--home', home], { encoding: 'utf8', env: { ...process.env, OMNI_HOME: '' } });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function setup(t: { after: (fn: () => void) => void }) {
  const dir = tempDir('harness-cli');
  t.after(dir.cleanup);
  const workspace = join(dir.path, 'ws');
  mkdirSync(workspace);
  return { home: join(dir.path, 'home'), workspace };
}

test('omni harness spec prints the invocation spec as JSON and prepares the harness home', (t) => {
  const { home, workspace } = setup(t);
  const result = omni(home, 'harness', 'spec', '--frontend', 'claude-code', '--mode', 'headless', '--io', 'pipes', '--cwd', workspace, '--prompt', 'list the files');
  assert.equal(result.code, 0, result.stderr);
  const out = JSON.parse(result.stdout);
  const key = out.spec.continuation.key;
  assert.equal(out.spec.provider, 'anthropic');
  assert.equal(out.spec.cwd, workspace);
  assert.deepEqual(out.spec.argv.slice(0, 7), ['claude', '-p', '--output-format', 'stream-json', '--verbose', '--session-id', key]);
  assert.deepEqual(out.spec.argv.slice(-2), ['--', 'list the files']);
  assert.equal(out.spec.env.CLAUDE_CONFIG_DIR, join(home, 'harness', 'claude-code', 'config'));
  assert.deepEqual(out.stdio, { kind: 'spawn', stdio: ['ignore', 'pipe', 'pipe'] });
  assert.ok(existsSync(join(home, 'harness', 'claude-code', 'config', '.claude.json')));
  assert.match(out.spec.displayCommand, /^cd .* && (\w+=\S+ )*CLAUDE_CONFIG_DIR=.* claude -p /);
});

test('omni harness spec resumes a codex thread with its key', (t) => {
  const { home, workspace } = setup(t);
  const key = '01a208ca-3134-71b3-a47d-708afa6b536e';
  const result = omni(home, 'harness', 'spec', '--frontend', 'codex-cli', '--mode', 'interactive', '--io', 'pty', '--cwd', workspace, '--provider', 'openai', '--continuation', key);
  assert.equal(result.code, 0, result.stderr);
  const out = JSON.parse(result.stdout);
  assert.deepEqual(out.spec.argv.slice(0, 3), ['codex', 'resume', '--no-daemon']);
  assert.deepEqual(out.spec.argv.slice(-2), ['--', key]);
  assert.deepEqual(out.spec.continuation, { provider: 'openai', key });
});

test('omni harness spec: refused requests exit 1 with a typed error on stderr', (t) => {
  const { home, workspace } = setup(t);
  const cases: [string[], string, RegExp][] = [
    [['--frontend', 'aider', '--mode', 'interactive', '--io', 'pty', '--cwd', workspace], 'HARNESS_UNKNOWN_FRONTEND', /unknown harness frontend "aider"; use claude-code or codex-cli/],
    [['--frontend', 'agent-sdk', '--mode', 'interactive', '--io', 'pty', '--cwd', workspace], 'HARNESS_UNSUPPORTED_MODE', /SDK harness/],
    [['--frontend', 'codex-cli', '--mode', 'interactive', '--io', 'pty', '--cwd', 'ws'], 'HARNESS_CWD_NOT_ABSOLUTE', /must be an absolute path/],
    [['--frontend', 'codex-cli', '--mode', 'interactive', '--io', 'pty', '--cwd', join(workspace, 'missing')], 'HARNESS_CWD_MISSING', /not an existing directory/],
    [
      ['--frontend', 'codex-cli', '--mode', 'headless', '--io', 'pipes', '--cwd', workspace, '--prompt', 'x', '--provider', 'anthropic', '--continuation', '5b1e0f8e-6a0d-4c1e-9b51-2f5f3d0c9a11'],
      'HARNESS_PROVIDER_MISMATCH',
      /this session's continuation is anthropic-typed; it cannot be resumed with codex-cli \(openai\)/,
    ],
    [['--frontend', 'codex-cli', '--mode', 'headless', '--io', 'pipes', '--cwd', workspace, '--prompt', 'x', '--provider', 'openai', '--continuation', 'my-thread'], 'HARNESS_BAD_CONTINUATION_KEY', /silently start a NEW thread/],
    [['--frontend', 'claude-code', '--mode', 'headless', '--io', 'pipes', '--cwd', workspace], 'HARNESS_PROMPT_REQUIRED', /needs a prompt/],
  ];
  for (const [args, code, message] of cases) {
    const result = omni(home, 'harness', 'spec', ...args);
    assert.equal(result.code, 1, `${code}: ${result.stdout}${result.stderr}`);
    const { error } = JSON.parse(result.stderr);
    assert.equal(error.code, code);
    assert.match(error.message, message);
  }
});

test('omni harness spec: usage mistakes exit 2 with the usage text', (t) => {
  const { home, workspace } = setup(t);
  const missingMode = omni(home, 'harness', 'spec', '--frontend', 'codex-cli', '--io', 'pty', '--cwd', workspace);
  assert.equal(missingMode.code, 2);
  assert.match(missingMode.stderr, /harness spec needs --mode interactive\|headless/);
  assert.match(missingMode.stderr, /harness spec --frontend claude-code\|codex-cli/);
  const badIo = omni(home, 'harness', 'spec', '--frontend', 'codex-cli', '--mode', 'headless', '--io', 'tty', '--cwd', workspace);
  assert.equal(badIo.code, 2);
  assert.match(badIo.stderr, /--io must be one of pty, pipes, inherit, not "tty"/);
  const keyWithoutProvider = omni(home, 'harness', 'spec', '--frontend', 'codex-cli', '--mode', 'headless', '--io', 'pty', '--cwd', workspace, '--continuation', 'x');
  assert.equal(keyWithoutProvider.code, 2);
  assert.match(keyWithoutProvider.stderr, /--continuation needs --provider/);
});
