import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse as parseToml } from 'smol-toml';
import { buildProcessInvocationSpec, harnessStdio, type IoMode } from '../../src-main/node/harness';
import { CODEX_KEY, harnessDirs, request } from './harnessFixtures';

/** smol-toml returns null-prototype objects; compare plain ones. */
function parse(text: string): Record<string, unknown> {
  return JSON.parse(JSON.stringify(parseToml(text))) as Record<string, unknown>;
}

const ioModes: IoMode[] = ['pty', 'pipes', 'inherit'];

for (const io of ioModes) {
  test(`codex-cli interactive over ${io}: TUI without the background daemon, sandboxed, asking on request`, (t) => {
    const dirs = harnessDirs(t);
    const { spec } = buildProcessInvocationSpec(request('codex-cli', dirs, { ioMode: io, model: 'gpt-5-codex' }), { prompt: 'hello' });
    assert.deepEqual(spec.argv, [
      'codex', '--no-daemon', '--disable', 'daemon_auto_start', '-C', dirs.workspace, '-s', 'workspace-write', '-a', 'on-request', '-m', 'gpt-5-codex', '--', 'hello',
    ]);
    assert.equal(spec.cwd, dirs.workspace);
    assert.deepEqual(spec.env, { CODEX_HOME: join(dirs.aspHome, 'codex-cli', 'home') });
    assert.deepEqual(spec.continuation, { provider: 'openai' }, 'Codex reports the thread id in its first event; no key before that');
  });

  test(`codex-cli interactive over ${io} with a continuation: codex resume --no-daemon ... -- <thread id>`, (t) => {
    const dirs = harnessDirs(t);
    const { spec } = buildProcessInvocationSpec(request('codex-cli', dirs, { ioMode: io, continuation: { provider: 'openai', key: CODEX_KEY } }));
    assert.deepEqual(spec.argv, ['codex', 'resume', '--no-daemon', '--disable', 'daemon_auto_start', '-C', dirs.workspace, '-s', 'workspace-write', '-a', 'on-request', '--', CODEX_KEY]);
    assert.deepEqual(spec.continuation, { provider: 'openai', key: CODEX_KEY });
  });

  test(`codex-cli headless over ${io}: exec --json, approvals never, prompt after --, stdin closed`, (t) => {
    const dirs = harnessDirs(t);
    const { spec } = buildProcessInvocationSpec(request('codex-cli', dirs, { ioMode: io, interactionMode: 'headless' }), { prompt: 'fix the tests' });
    assert.deepEqual(spec.argv, [
      'codex', 'exec', '--json', '--skip-git-repo-check', '--disable', 'daemon_auto_start', '-C', dirs.workspace, '-s', 'workspace-write', '-c', 'approval_policy="never"', '--', 'fix the tests',
    ]);
    const stdio = harnessStdio(spec);
    if (io === 'pty') assert.deepEqual(stdio, { kind: 'pty' });
    else assert.deepEqual(stdio, { kind: 'spawn', stdio: ['ignore', io === 'inherit' ? 'inherit' : 'pipe', io === 'inherit' ? 'inherit' : 'pipe'] });
  });

  test(`codex-cli headless over ${io} with a continuation: exec resume, sandbox as -c (exec resume has no -C/-s)`, (t) => {
    const dirs = harnessDirs(t);
    const { spec } = buildProcessInvocationSpec(request('codex-cli', dirs, { ioMode: io, interactionMode: 'headless', continuation: { provider: 'openai', key: CODEX_KEY } }), {
      prompt: 'and now the docs',
    });
    assert.deepEqual(spec.argv, [
      'codex', 'exec', 'resume', '--json', '--skip-git-repo-check', '--disable', 'daemon_auto_start', '-c', 'sandbox_mode="workspace-write"', '-c', 'approval_policy="never"', '--', CODEX_KEY, 'and now the docs',
    ]);
    assert.equal(spec.cwd, dirs.workspace);
  });
}

test('codex-cli: CODEX_HOME/config.toml trusts the workspace, turns off update checks, the daemon, analytics and the plugin sync, keeps other keys', (t) => {
  const dirs = harnessDirs(t);
  buildProcessInvocationSpec(request('codex-cli', dirs));
  const file = join(dirs.aspHome, 'codex-cli', 'home', 'config.toml');
  const config = parse(readFileSync(file, 'utf8')) as Record<string, Record<string, unknown>>;
  assert.equal(config.check_for_update_on_startup, false);
  assert.deepEqual(config.features, { daemon_auto_start: false, plugins: false });
  assert.deepEqual(config.analytics, { enabled: false });
  assert.deepEqual(config.projects, { [dirs.workspace]: { trust_level: 'trusted' } });
  writeFileSync(file, 'model_provider = "mock"\n' + readFileSync(file, 'utf8') + '\n[model_providers.mock]\nbase_url = "http://127.0.0.1:1/v1"\n');
  buildProcessInvocationSpec(request('codex-cli', dirs));
  const again = parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  assert.equal(again.model_provider, 'mock');
  assert.deepEqual(again.model_providers, { mock: { base_url: 'http://127.0.0.1:1/v1' } });
});

test('codex-cli: an openaiEndpoint becomes model provider "omni" (the TUI then skips its sign-in screen); without one the TUI warns', (t) => {
  const dirs = harnessDirs(t);
  const bare = buildProcessInvocationSpec(request('codex-cli', dirs));
  assert.match(bare.warnings!.join('\n'), /Codex TUI will open on its sign-in screen/);
  // TMPDIR outside the harness home: the test's home is under /tmp, which would warn (see harnessTraps).
  const { warnings } = buildProcessInvocationSpec(request('codex-cli', dirs, { env: { TMPDIR: join(dirs.root, 'tmp') } }), {
    openaiEndpoint: { baseUrl: 'http://127.0.0.1:4100/v1', envKey: 'OMNI_OPENAI_KEY' },
  });
  assert.equal(warnings, undefined);
  const config = parse(readFileSync(join(dirs.aspHome, 'codex-cli', 'home', 'config.toml'), 'utf8'));
  assert.equal(config.model_provider, 'omni');
  assert.deepEqual(config.model_providers, { omni: { name: 'Omniscient Shell', base_url: 'http://127.0.0.1:4100/v1', env_key: 'OMNI_OPENAI_KEY', wire_api: 'responses' } });
});

test("codex-cli with useUserConfig: no CODEX_HOME, the user's ~/.codex untouched, the daemon still off by argv", (t) => {
  const dirs = harnessDirs(t);
  const userHome = join(dirs.root, 'user');
  const { spec } = buildProcessInvocationSpec(request('codex-cli', dirs), { useUserConfig: true, userHome });
  assert.deepEqual(spec.env, {});
  assert.ok(spec.argv.includes('--no-daemon'));
  assert.equal(existsSync(join(userHome, '.codex')), false);
  assert.equal(existsSync(join(dirs.aspHome, 'codex-cli')), false);
});

test('codex-cli: instructions go in as developer_instructions, a TOML string', (t) => {
  const dirs = harnessDirs(t);
  const { spec } = buildProcessInvocationSpec(request('codex-cli', dirs, { spec: { instructions: 'Say "hi"\nthen stop.' } }));
  const at = spec.argv.indexOf('developer_instructions="Say \\"hi\\"\\nthen stop."');
  assert.ok(at > 0 && spec.argv[at - 1] === '-c', spec.argv.join(' '));
  assert.deepEqual(parse(spec.argv[at]), { developer_instructions: 'Say "hi"\nthen stop.' });
});
