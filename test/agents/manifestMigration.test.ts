import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  errorsOf,
  migrateManifestFile,
  migrateManifestTable,
  migrationPath,
  MIGRATION_STEPS,
  readManifest,
  type ManifestMigrationStep,
} from '../../src-main/node/agents/manifest';
import { tempDir } from '../helpers';
import { DRAFT_00, manifestText, writeAgent } from './agentFolders';

test('the 0.0 → 0.1 step renames permissions to capabilities, converts resource units, moves ui_hints and adds oauth_scopes', () => {
  const result = migrateManifestTable(
    { schema_version: '0.0', name: 'A', permissions: ['fs.read', 'fs.write', 'net', 'exec', 'kv', 'codegen'], ui_hints: ['diff'], resources: { cpu_millicores: 1500, memory_mb: 2048 } },
    '0.0',
  )!;
  assert.equal(result.from, '0.0');
  assert.equal(result.to, '0.1');
  assert.deepEqual(result.table, {
    schema_version: '0.1',
    name: 'A',
    capabilities: ['files.read', 'files.write', 'network', 'process.exec', 'memory', 'codegen'],
    ui: { hints: ['diff'] },
    resources: { cpu: '1500m', mem: '2Gi' },
    oauth_scopes: [],
  });
  assert.deepEqual(result.steps[0].changes, [
    'permissions → capabilities (renamed fs.read → files.read, fs.write → files.write, net → network, exec → process.exec, kv → memory)',
    'resources.cpu_millicores = 1500 → resources.cpu = "1500m"',
    'resources.memory_mb = 2048 → resources.mem = "2Gi"',
    'ui_hints → ui.hints',
    'added oauth_scopes = [] (required from 0.1 on)',
    'schema_version "0.0" → "0.1"',
  ]);
});

test('the chain: 0.0 has one step to 0.1, 0.1 needs none, unknown and newer versions have no path', () => {
  assert.deepEqual(migrationPath('0.0'), [MIGRATION_STEPS[0]]);
  assert.deepEqual(migrationPath('0.1'), []);
  assert.equal(migrationPath('0.2'), null);
  assert.equal(migrationPath('banana'), null);
});

test('a future 0.2 only adds a step: a 0.0 manifest then walks 0.0 → 0.1 → 0.2 in order', () => {
  const to02: ManifestMigrationStep = {
    from: '0.1',
    to: '0.2',
    migrate: (table) => ({ table: { ...table, schema_version: '0.2', limits: table.resources }, changes: ['resources → limits'] }),
  };
  const chain = { steps: [...MIGRATION_STEPS, to02], current: '0.2' };
  const result = migrateManifestTable({ schema_version: '0.0', permissions: [], resources: { cpu_millicores: 100, memory_mb: 64 } }, '0.0', chain)!;
  assert.deepEqual(
    result.steps.map((step) => `${step.from}→${step.to}`),
    ['0.0→0.1', '0.1→0.2'],
  );
  assert.equal(result.table.schema_version, '0.2');
  assert.deepEqual(result.table.limits, { cpu: '100m', mem: '64Mi' });
});

test('migrating a file keeps the original byte for byte in manifest.toml.bak and leaves a valid 0.1 manifest', (t) => {
  const dir = tempDir('migrate');
  t.after(dir.cleanup);
  const folder = writeAgent(dir.path, 'old', DRAFT_00);
  assert.equal(errorsOf(readManifest(folder))[0].code, 'unsupported_schema_version');
  const outcome = migrateManifestFile(folder);
  assert.equal(outcome.status, 'migrated');
  assert.ok(outcome.status === 'migrated' && outcome.backup === join(folder, 'manifest.toml.bak'));
  assert.equal(readFileSync(join(folder, 'manifest.toml.bak'), 'utf8'), DRAFT_00);
  const report = readManifest(folder);
  assert.deepEqual(report.issues, []);
  assert.deepEqual(report.manifest!.capabilities, ['files.read', 'network', 'codegen']);
  assert.deepEqual(report.manifest!.resources, { cpuMillicores: 250, memBytes: 128 * 2 ** 20 });
  assert.deepEqual(report.manifest!.uiHints, ['streaming', 'log']);
  assert.match(readFileSync(join(folder, 'manifest.toml'), 'utf8'), /^# Migrated from schema_version "0\.0" to "0\.1" by `omni agent migrate`; the original is in manifest\.toml\.bak\.\nschema_version = "0\.1"\nname = "Old Agent"/);
  // Running it again changes nothing.
  const again = migrateManifestFile(folder);
  assert.equal(again.status, 'up_to_date');
});

test('an earlier backup is never overwritten: the next one is manifest.toml.bak.1', (t) => {
  const dir = tempDir('migrate');
  t.after(dir.cleanup);
  const folder = writeAgent(dir.path, 'old', DRAFT_00);
  writeFileSync(join(folder, 'manifest.toml.bak'), 'precious');
  const outcome = migrateManifestFile(folder);
  assert.ok(outcome.status === 'migrated');
  assert.equal(outcome.backup, join(folder, 'manifest.toml.bak.1'));
  assert.equal(readFileSync(join(folder, 'manifest.toml.bak'), 'utf8'), 'precious');
  assert.equal(readFileSync(join(folder, 'manifest.toml.bak.1'), 'utf8'), DRAFT_00);
  assert.match(outcome.text, /the original is in manifest\.toml\.bak\.1/);
});

test('a dry run returns the new text and writes nothing', (t) => {
  const dir = tempDir('migrate');
  t.after(dir.cleanup);
  const folder = writeAgent(dir.path, 'old', DRAFT_00);
  const outcome = migrateManifestFile(folder, { dryRun: true });
  assert.ok(outcome.status === 'migrated' && outcome.dryRun);
  assert.match(outcome.text, /capabilities = \[ "files\.read", "network", "codegen" \]/);
  assert.equal(readFileSync(join(folder, 'manifest.toml'), 'utf8'), DRAFT_00);
  assert.equal(existsSync(join(folder, 'manifest.toml.bak')), false);
});

test('a newer or unknown version, or broken TOML, cannot be migrated and the file is left alone', (t) => {
  const dir = tempDir('migrate');
  t.after(dir.cleanup);
  const newer = writeAgent(dir.path, 'newer', manifestText({ schema_version: '"0.2"' }));
  const outcome = migrateManifestFile(newer);
  assert.ok(outcome.status === 'failed');
  assert.equal(outcome.issues[0].code, 'unsupported_schema_version');
  assert.match(outcome.issues[0].fix, /newer Omniscient Shell/);
  const broken = writeAgent(dir.path, 'broken', 'schema_version = "0.0"\nname = \n');
  const brokenOutcome = migrateManifestFile(broken);
  assert.ok(brokenOutcome.status === 'failed');
  assert.equal(brokenOutcome.issues[0].code, 'toml_syntax');
  assert.equal(brokenOutcome.issues[0].line, 2);
  assert.equal(existsSync(join(newer, 'manifest.toml.bak')), false);
  assert.equal(existsSync(join(broken, 'manifest.toml.bak')), false);
});
