// `omni agent run`: the headless runner through the real CLI, bundled agents and a hand-written looping agent.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { tempDir } from '../helpers';
import { omniCli } from '../omniCli';

const cli = omniCli();

function omni(...args: string[]) {
  const result = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

const linesOf = (out: string) => out.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);

test('omni agent run: consent only from --grant (fail closed otherwise), events as JSON lines, exit codes', { timeout: 120_000 }, async (t) => {
  const home = tempDir('home');
  const workspace = tempDir('ws');
  t.after(() => {
    home.cleanup();
    workspace.cleanup();
  });
  writeFileSync(join(workspace.path, 'README.md'), '# Headless\n');

  const denied = omni('agent', 'run', 'workspace-summary', '--workspace', workspace.path, '--prompt', 'go', '--home', home.path);
  assert.equal(denied.code, 3, denied.err);
  assert.match(denied.err, /denied \(grant more with --grant/);
  const deniedEvents = linesOf(denied.out);
  assert.ok(deniedEvents.every((e) => e.schema_version === '0.1'));
  assert.match(deniedEvents.map((e) => e.data ?? '').join(''), /could not read the workspace \(`capability_denied`\)/);

  const granted = omni('agent', 'run', 'workspace-summary', '--workspace', workspace.path, '--prompt', 'go', '--home', home.path, '--grant', 'files.read@10m');
  assert.equal(granted.code, 0, granted.err);
  const outputs = linesOf(granted.out).filter((e) => e.type === 'output');
  assert.ok(outputs.every((e) => e.agent_id === 'workspace-summary' && typeof e.chunk_id === 'string' && e.content_type === 'text/markdown'));
  assert.match(outputs.map((e) => e.data).join(''), /> # Headless/);

  const scoped = omni('agent', 'run', 'scaffolder', '--workspace', workspace.path, '--prompt', 'scaffold lib-a', '--home', home.path, '--grant', 'files.write:other/**@10m');
  assert.equal(scoped.code, 3, 'a grant for another folder must not let it write here');

  const bad = omni('agent', 'run', 'workspace-summary', '--workspace', workspace.path, '--prompt', 'go', '--grant', 'files.read@forever');
  assert.equal(bad.code, 2);
  assert.match(bad.err, /the duration after "@" must be like 30s, 10m, 2h or once/);
  const missing = omni('agent', 'run', 'no-such-agent', '--workspace', workspace.path, '--prompt', 'go', '--home', home.path);
  assert.equal(missing.code, 2);
  assert.match(missing.err, /neither an agent folder .* nor an installed agent/);

  // A hand-written agent that never returns: stopped at --timeout, exit 4. Four cores' worth of CPU budget, so the
  // wall-clock deadline, not the CPU budget (which also exits 4), is what stops it.
  const wabt = await (await import('wabt')).default();
  const folder = join(home.path, 'looper');
  mkdirSync(folder);
  const wat = `(module (memory (export "memory") 1)
    (func (export "omni_alloc") (param i32) (result i32) i32.const 1024)
    (func (export "omni_invoke") (param i32 i32) (loop $forever br $forever)))`;
  writeFileSync(join(folder, 'agent.wasm'), Buffer.from(wabt.parseWat('looper.wat', wat).toBinary({}).buffer));
  writeFileSync(
    join(folder, 'manifest.toml'),
    'schema_version = "0.1"\nname = "looper"\nversion = "0.1.0"\nentry = "agent.wasm"\nsandbox = "wasm"\ncapabilities = []\noauth_scopes = []\nresources.cpu = "4"\nresources.mem = "1Mi"\nui.hints = []\n',
  );
  const looped = omni('agent', 'run', folder, '--workspace', workspace.path, '--prompt', 'go', '--home', home.path, '--timeout', '1');
  assert.equal(looped.code, 4, looped.err + looped.out);
  assert.ok(linesOf(looped.out).some((e) => e.type === 'error' && e.code === 'timeout'));
});
