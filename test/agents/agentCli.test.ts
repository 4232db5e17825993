import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { tempDir } from '../helpers';
import { omniCli } from '../omniCli';
import { DRAFT_00, manifestText, writeAgent } from './agentFolders';

const cli = omniCli();

function omni(...args: string[]) {
  const result = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
  return { code: result.status, out: result.stdout + result.stderr };
}

test('omni agent validate: exit 0 with a summary and warnings for a valid manifest', (t) => {
  const dir = tempDir('agent-cli');
  t.after(dir.cleanup);
  const folder = writeAgent(dir.path, 'ok', manifestText({ 'ui.hints': '["streaming", "sparkles"]' }));
  const result = omni('agent', 'validate', folder);
  assert.equal(result.code, 0, result.out);
  assert.match(result.out, /^valid: .*manifest\.toml: "Test Agent" 0\.1\.0, sandbox wasm, capabilities \[codegen, files\.read\], cpu 500m, mem 64Mi \(1 warning\)$/m);
  assert.match(result.out, /manifest\.toml:10: warning: ui\.hints\[1\]: .*found "sparkles"/);
  // The manifest file itself is accepted in place of its folder.
  assert.equal(omni('agent', 'validate', join(folder, 'manifest.toml')).code, 0);
});

test('omni agent validate: exit 1 listing every error with file:line, expected, found and fix', (t) => {
  const dir = tempDir('agent-cli');
  t.after(dir.cleanup);
  const folder = writeAgent(dir.path, 'bad', manifestText({ version: '"1.0"', capabilities: '["files.raed"]', 'resources.mem': '"512MB"' }, ['colour = "blue"']));
  const result = omni('agent', 'validate', folder);
  assert.equal(result.code, 1, result.out);
  assert.match(result.out, /^INVALID: .*manifest\.toml: 3 errors, 1 warning$/m);
  const file = join(folder, 'manifest.toml');
  const lines = result.out.trim().split('\n').slice(1).map((line) => line.trim());
  assert.deepEqual(
    lines.map((line) => line.slice(0, line.indexOf(': expected'))),
    [`${file}:3: error: version`, `${file}:6: error: capabilities[0]`, `${file}:9: error: resources.mem`, `${file}:11: warning: colour`],
  );
  assert.match(lines[1], /Fix: did you mean "files\.read"\?/);
  assert.match(lines[2], /Fix: write resources\.mem = "512Mi"/);
});

test('omni agent validate: an unsupported schema_version names the supported one and omni agent migrate', (t) => {
  const dir = tempDir('agent-cli');
  t.after(dir.cleanup);
  const old = writeAgent(dir.path, 'old', DRAFT_00);
  const result = omni('agent', 'validate', old);
  assert.equal(result.code, 1);
  assert.match(result.out, /schema_version: expected schema_version = "0\.1".*found unsupported "0\.0"\. Fix: run `omni agent migrate .*old` to upgrade it to "0\.1"/);
  const newer = omni('agent', 'validate', writeAgent(dir.path, 'newer', manifestText({ schema_version: '"1.0"' })));
  assert.equal(newer.code, 1);
  assert.match(newer.out, /found unsupported "1\.0"\. Fix: this manifest is for a newer Omniscient Shell/);
});

test('omni agent migrate: --dry-run prints the changes and the new file; then a real run rewrites it, keeping a .bak', (t) => {
  const dir = tempDir('agent-cli');
  t.after(dir.cleanup);
  const folder = writeAgent(dir.path, 'old', DRAFT_00);
  const dry = omni('agent', 'migrate', folder, '--dry-run');
  assert.equal(dry.code, 0, dry.out);
  assert.match(dry.out, /^would migrate .*manifest\.toml from schema_version "0\.0" to "0\.1":$/m);
  assert.match(dry.out, /0\.0 → 0\.1: permissions → capabilities \(renamed fs\.read → files\.read, net → network\)/);
  assert.match(dry.out, /0\.0 → 0\.1: resources\.memory_mb = 128 → resources\.mem = "128Mi"/);
  assert.match(dry.out, /\(dry run: nothing written\)/);
  assert.equal(readFileSync(join(folder, 'manifest.toml'), 'utf8'), DRAFT_00);

  const real = omni('agent', 'migrate', folder);
  assert.equal(real.code, 0, real.out);
  assert.match(real.out, /the original is kept in .*manifest\.toml\.bak/);
  assert.match(real.out, /the migrated manifest is valid: "Old Agent" 1\.0\.0, sandbox wasm, capabilities \[files\.read, network, codegen\], cpu 250m, mem 128Mi/);
  assert.equal(readFileSync(join(folder, 'manifest.toml.bak'), 'utf8'), DRAFT_00);
  assert.equal(omni('agent', 'validate', folder).code, 0);
  const again = omni('agent', 'migrate', folder);
  assert.equal(again.code, 0);
  assert.match(again.out, /already at schema_version "0\.1"; nothing to migrate/);
});

test('omni agent migrate: exit 1 when the migrated manifest still has errors (e.g. its entry is missing), and for a newer version', (t) => {
  const dir = tempDir('agent-cli');
  t.after(dir.cleanup);
  const folder = writeAgent(dir.path, 'old', DRAFT_00.replace('entry = "agent.wasm"', 'entry = "build/agent.wasm"'));
  const result = omni('agent', 'migrate', folder);
  assert.equal(result.code, 1, result.out);
  assert.match(result.out, /the migrated manifest still has errors to fix by hand/);
  assert.match(result.out, /error: entry: expected a file that exists, found no file at .*build\/agent\.wasm/);
  assert.ok(existsSync(join(folder, 'manifest.toml.bak')), 'the migration itself was written');
  const newer = writeAgent(dir.path, 'newer', manifestText({ schema_version: '"0.2"' }));
  const refused = omni('agent', 'migrate', newer);
  assert.equal(refused.code, 1);
  assert.match(refused.out, /cannot migrate .*manifest\.toml:\n.*unsupported "0\.2"/);
  assert.equal(existsSync(join(newer, 'manifest.toml.bak')), false);
});

test('omni agent list --home: user agents with their details, invalid ones with their errors', (t) => {
  const home = tempDir('agent-cli-home');
  t.after(home.cleanup);
  const agents = join(home.path, 'agents');
  const good = writeAgent(agents, 'good', manifestText({ name: '"Zz Lister Test"' }));
  const bad = writeAgent(agents, 'bad', manifestText({ sandbox: '"vm"' }));
  const result = omni('agent', 'list', '--home', home.path);
  assert.equal(result.code, 0, result.out);
  assert.match(result.out, new RegExp(`user: ${agents.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\)`));
  assert.ok(result.out.includes(`"Zz Lister Test" 0.1.0, sandbox wasm, capabilities [codegen, files.read], cpu 500m, mem 64Mi, user, ${good}`), result.out);
  assert.ok(result.out.includes(`${bad} (user): 1 error`), result.out);
  assert.match(result.out, /manifest\.toml:5: error: sandbox: expected "wasm" or "native", found the string "vm"/);
});

test('omni agent: mistakes in the call are usage errors (exit 2) and omni help lists the agent commands', () => {
  const unknown = omni('agent', 'frobnicate');
  assert.equal(unknown.code, 2);
  assert.match(unknown.out, /unknown agent action "frobnicate"/);
  const noDir = omni('agent', 'validate');
  assert.equal(noDir.code, 2);
  assert.match(noDir.out, /agent validate needs one agent folder/);
  const badFlag = omni('agent', 'migrate', '.', '--force');
  assert.equal(badFlag.code, 2);
  assert.match(badFlag.out, /unknown option "--force"/);
  const help = omni('help');
  assert.match(help.out, /agent validate DIR/);
  assert.match(help.out, /agent migrate DIR \[--dry-run\]/);
  assert.match(help.out, /agent list \[--home DIR\]/);
});
