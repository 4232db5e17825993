import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { errorsOf, formatIssue, loadManifest, ManifestError, readManifest, warningsOf, type ManifestIssue, type ManifestReport } from '../../src-main/node/agents/manifest';
import { tempDir } from '../helpers';
import { manifestText, writeAgent } from './agentFolders';

let counter = 0;

/** Validates the standard manifest with `overrides` in a fresh folder. */
function check(t: { after: (fn: () => void) => void }, overrides: Record<string, string | null> = {}, extra: string[] = [], entry?: { path?: string; bytes?: Buffer }): ManifestReport {
  const dir = tempDir('manifest');
  t.after(dir.cleanup);
  return readManifest(writeAgent(dir.path, `agent${counter++}`, manifestText(overrides, extra), entry));
}

/** The one error about `key`, failing with the full list when there is not exactly one. */
function errorAt(report: ManifestReport, key: string): ManifestIssue {
  const matching = errorsOf(report).filter((issue) => issue.key === key);
  assert.equal(matching.length, 1, `expected one error at ${key}, got:\n${report.issues.map(formatIssue).join('\n')}`);
  assert.equal(report.manifest, null, 'a manifest with errors is not usable');
  return matching[0];
}

const LINE = { schema_version: 1, name: 2, version: 3, entry: 4, sandbox: 5, capabilities: 6, oauth_scopes: 7, cpu: 8, mem: 9, hints: 10 };

test('a valid manifest becomes a typed object with cpu in millicores and memory in bytes', (t) => {
  const report = check(t);
  assert.deepEqual(report.issues, []);
  const manifest = report.manifest!;
  assert.equal(manifest.name, 'Test Agent');
  assert.equal(manifest.version, '0.1.0');
  assert.equal(manifest.sandbox, 'wasm');
  assert.deepEqual(manifest.capabilities, ['codegen', 'files.read']);
  assert.deepEqual(manifest.resources, { cpuMillicores: 500, memBytes: 64 * 1024 * 1024 });
  assert.deepEqual(manifest.uiHints, ['streaming', 'diff']);
  assert.equal(manifest.entryPath, join(report.folder, 'agent.wasm'));
  assert.match(report.sha256!, /^[0-9a-f]{64}$/);
});

test("the spec's own §1 example is valid, written with tables and OAuth scopes", (t) => {
  const dir = tempDir('manifest');
  t.after(dir.cleanup);
  const text = `schema_version = "0.1"
name = "Claude Code"
version = "0.1.0"
entry = "claude_agent.wasm"
sandbox = "wasm"              # wasm | native

capabilities = ["codegen", "files.read", "files.write", "network", "media.preview"]
oauth_scopes = ["github:repo", "google:drive.readonly"]

resources.cpu = "500m"
resources.mem = "512Mi"

ui.hints = ["streaming", "diff", "preview"]
`;
  const report = readManifest(writeAgent(dir.path, 'claude', text, { path: 'claude_agent.wasm' }));
  assert.deepEqual(report.issues, []);
  assert.deepEqual(report.manifest!.oauthScopes, [
    { provider: 'github', scope: 'repo' },
    { provider: 'google', scope: 'drive.readonly' },
  ]);
  assert.equal(report.manifest!.resources.memBytes, 512 * 2 ** 20);
});

test('schema_version, name, version, entry, sandbox, capabilities, oauth_scopes, resources and ui.hints are each required', (t) => {
  for (const key of ['name', 'version', 'entry', 'sandbox', 'capabilities', 'oauth_scopes', 'resources.cpu', 'resources.mem', 'ui.hints']) {
    const issue = errorAt(check(t, { [key]: null }), key);
    assert.equal(issue.code, 'missing_key', key);
    assert.equal(issue.found, 'nothing (the key is missing)');
    assert.match(issue.fix, /add /, key);
  }
  const noVersion = check(t, { schema_version: null });
  assert.match(errorAt(noVersion, 'schema_version').fix, /add schema_version = "0\.1"/);
});

test('name: empty, too long, or with control characters is refused with a cleaned-up suggestion', (t) => {
  assert.equal(errorAt(check(t, { name: '""' }), 'name').code, 'invalid_value');
  assert.match(errorAt(check(t, { name: `"${'x'.repeat(65)}"` }), 'name').expected, /1 to 64 characters/);
  const tab = errorAt(check(t, { name: '"Bad\\tName"' }), 'name');
  assert.equal(tab.line, LINE.name);
  assert.match(tab.fix, /name = "BadName"/);
  assert.equal(errorAt(check(t, { name: '42' }), 'name').code, 'wrong_type');
});

test('version must be semver: near misses get the intended version as the fix', (t) => {
  const short = errorAt(check(t, { version: '"0.1"' }), 'version');
  assert.equal(short.line, LINE.version);
  assert.equal(short.found, 'the string "0.1"');
  assert.match(short.fix, /version = "0\.1\.0"/);
  assert.match(errorAt(check(t, { version: '"v1.2.3"' }), 'version').fix, /version = "1\.2\.3"/);
  const number = errorAt(check(t, { version: '1.5' }), 'version');
  assert.equal(number.code, 'wrong_type');
  assert.match(number.fix, /quote it.*"1\.5\.0"/);
  assert.equal(check(t, { version: '"1.2.3-beta.1+build.7"' }).manifest?.version, '1.2.3-beta.1+build.7');
});

test('entry: absolute, "..", backslashes, missing, a folder, a symlink out of the folder, or not WASM are each refused', (t) => {
  const dotdot = errorAt(check(t, { entry: '"../agent.wasm"' }), 'entry');
  assert.equal(dotdot.code, 'entry_outside_folder');
  assert.equal(dotdot.line, LINE.entry);
  assert.match(dotdot.found, /uses "\.\." to leave the folder/);
  assert.equal(errorAt(check(t, { entry: '"sub/../../agent.wasm"' }), 'entry').code, 'entry_outside_folder');
  const absolute = errorAt(check(t, { entry: '"/usr/bin/agent.wasm"' }), 'entry');
  assert.equal(absolute.code, 'entry_outside_folder');
  assert.match(absolute.found, /absolute path/);
  assert.equal(errorAt(check(t, { entry: '"C:/agents/agent.wasm"' }), 'entry').code, 'entry_outside_folder');
  assert.match(errorAt(check(t, { entry: '"bin\\\\agent.wasm"' }), 'entry').fix, /entry = "bin\/agent\.wasm"/);
  const missing = errorAt(check(t, { entry: '"nope.wasm"' }), 'entry');
  assert.equal(missing.code, 'entry_missing');
  assert.match(missing.found, /no file at .*nope\.wasm/);
  assert.match(missing.fix, /build the agent first/);
  assert.equal(errorAt(check(t, { entry: '"."' }), 'entry').code, 'entry_missing');
  const notWasm = errorAt(check(t, {}, [], { bytes: Buffer.from('#!/bin/sh\necho hi\n') }), 'entry');
  assert.equal(notWasm.code, 'entry_not_wasm');
  assert.match(notWasm.fix, /sandbox = "native"/);
  // The same script is fine as a native agent's entry, and entries may sit in sub-folders.
  assert.ok(check(t, { sandbox: '"native"', entry: '"bin/run.sh"' }, [], { path: 'bin/run.sh', bytes: Buffer.from('#!/bin/sh\n') }).manifest);

  const dir = tempDir('manifest');
  t.after(dir.cleanup);
  writeFileSync(join(dir.path, 'outside.wasm'), Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
  const folder = join(dir.path, 'linked');
  mkdirSync(folder);
  writeFileSync(join(folder, 'manifest.toml'), manifestText());
  symlinkSync(join(dir.path, 'outside.wasm'), join(folder, 'agent.wasm'));
  const linked = errorAt(readManifest(folder), 'entry');
  assert.equal(linked.code, 'entry_outside_folder');
  assert.match(linked.found, /a symlink to .*outside\.wasm outside the folder/);
});

test('sandbox: only wasm or native; a typo gets the intended value', (t) => {
  const typo = errorAt(check(t, { sandbox: '"wsam"' }), 'sandbox');
  assert.equal(typo.line, LINE.sandbox);
  assert.match(typo.fix, /sandbox = "wasm"/);
  assert.match(errorAt(check(t, { sandbox: '"WASM"' }), 'sandbox').fix, /sandbox = "wasm"/);
  assert.match(errorAt(check(t, { sandbox: '"docker"' }), 'sandbox').fix, /"wasm" \(preferred\) or "native"/);
  assert.equal(errorAt(check(t, { sandbox: 'true' }), 'sandbox').code, 'wrong_type');
});

test('capabilities: unknown names (with a did-you-mean), non-strings and malformed OAuth forms are errors; process.exec is known', (t) => {
  const typo = errorAt(check(t, { capabilities: '["files.raed"]' }), 'capabilities[0]');
  assert.equal(typo.line, LINE.capabilities);
  assert.equal(typo.found, 'the unknown capability "files.raed"');
  assert.match(typo.fix, /did you mean "files\.read"/);
  assert.equal(errorAt(check(t, { capabilities: '["codegen", 7]' }), 'capabilities[1]').code, 'wrong_type');
  assert.equal(errorAt(check(t, { capabilities: '"network"' }), 'capabilities').code, 'wrong_type');
  assert.match(errorAt(check(t, { capabilities: '["oauth:GitHub"]' }), 'capabilities[0]').expected, /oauth:<provider>\.<scope>/);
  const undeclared = errorAt(check(t, { capabilities: '["oauth:github.repo"]' }), 'capabilities[0]');
  assert.equal(undeclared.code, 'undeclared_oauth_scope');
  assert.match(undeclared.fix, /add "github:repo" to oauth_scopes/);
  const ok = check(t, { capabilities: '["oauth:google.drive.readonly", "process.exec", "memory", "network", "media.preview", "files.write"]', oauth_scopes: '["google:drive.readonly"]' });
  assert.deepEqual(ok.manifest?.capabilities, ['oauth:google.drive.readonly', 'process.exec', 'memory', 'network', 'media.preview', 'files.write']);
  const twice = check(t, { capabilities: '["codegen", "codegen"]' });
  assert.ok(twice.manifest, 'a repeat is only a warning');
  assert.equal(warningsOf(twice)[0].code, 'duplicate_value');
});

test('oauth_scopes: provider:scope strings; a dot instead of the colon gets the corrected form', (t) => {
  const dotted = errorAt(check(t, { oauth_scopes: '["github.repo"]' }), 'oauth_scopes[0]');
  assert.equal(dotted.line, LINE.oauth_scopes);
  assert.match(dotted.fix, /"github:repo"/);
  assert.equal(errorAt(check(t, { oauth_scopes: '["GitHub:repo"]' }), 'oauth_scopes[0]').code, 'invalid_value');
  assert.equal(errorAt(check(t, { oauth_scopes: '[""]' }), 'oauth_scopes[0]').code, 'invalid_value');
  const url = check(t, { oauth_scopes: '["google:https://www.googleapis.com/auth/drive.readonly"]' });
  assert.deepEqual(url.manifest?.oauthScopes, [{ provider: 'google', scope: 'https://www.googleapis.com/auth/drive.readonly' }]);
});

test('resources.cpu: Kubernetes quantities normalise to millicores; zero, sub-millicore and garbage are refused', (t) => {
  const cases: [string, number][] = [['"500m"', 500], ['"1"', 1000], ['"0.5"', 500], ['"1.25"', 1250], ['2', 2000], ['0.3', 300], ['"1m"', 1]];
  for (const [value, millicores] of cases) assert.equal(check(t, { 'resources.cpu': value }).manifest?.resources.cpuMillicores, millicores, value);
  const doubled = errorAt(check(t, { 'resources.cpu': '"500mm"' }), 'resources.cpu');
  assert.equal(doubled.line, LINE.cpu);
  assert.match(doubled.fix, /resources\.cpu = "500m"/);
  assert.match(errorAt(check(t, { 'resources.cpu': '"0"' }), 'resources.cpu').found, /zero CPU/);
  assert.match(errorAt(check(t, { 'resources.cpu': '"0.0005"' }), 'resources.cpu').found, /finer than one millicore/);
  assert.match(errorAt(check(t, { 'resources.cpu': '"two"' }), 'resources.cpu').found, /not a CPU quantity/);
  assert.match(errorAt(check(t, { 'resources.cpu': '"-1"' }), 'resources.cpu').found, /not a CPU quantity/);
});

test('resources.mem: Ki/Mi/Gi and k/M/G quantities or plain bytes normalise to bytes; "512MB" gets "512Mi" as the fix', (t) => {
  const cases: [string, number][] = [['"512Mi"', 512 * 2 ** 20], ['"1Gi"', 2 ** 30], ['"1.5Gi"', 1.5 * 2 ** 30], ['"1G"', 1e9], ['"100M"', 1e8], ['1048576', 2 ** 20], ['"65536"', 65536]];
  for (const [value, bytes] of cases) assert.equal(check(t, { 'resources.mem': value }).manifest?.resources.memBytes, bytes, value);
  const mb = errorAt(check(t, { 'resources.mem': '"512MB"' }), 'resources.mem');
  assert.equal(mb.line, LINE.mem);
  assert.match(mb.found, /unknown unit "MB"/);
  assert.match(mb.fix, /resources\.mem = "512Mi"/);
  assert.match(errorAt(check(t, { 'resources.mem': '"1Ki"' }), 'resources.mem').found, /less than one 64Ki WebAssembly page/);
  assert.match(errorAt(check(t, { 'resources.mem': '"lots"' }), 'resources.mem').found, /not a memory quantity/);
  assert.match(errorAt(check(t, { 'resources.mem': '"0.5"' }), 'resources.mem').found, /not a whole number of bytes/);
  const huge = check(t, { 'resources.mem': '"8Gi"' });
  assert.ok(huge.manifest, 'more than wasm32 can address is a warning, not an error');
  assert.match(warningsOf(huge)[0].expected, /at most 4Gi/);
  const noTable = errorAt(check(t, { 'resources.cpu': null, 'resources.mem': null }), 'resources');
  assert.equal(noTable.code, 'missing_key');
});

test('ui.hints: unknown hints are warnings (the manifest stays valid), a non-array is an error', (t) => {
  const report = check(t, { 'ui.hints': '["streaming", "dif", "sparkles"]' });
  assert.ok(report.manifest);
  assert.deepEqual(report.manifest.uiHints, ['streaming', 'dif', 'sparkles']);
  const [dif, sparkles] = warningsOf(report);
  assert.equal(dif.key, 'ui.hints[1]');
  assert.equal(dif.code, 'unknown_hint');
  assert.equal(dif.line, LINE.hints);
  assert.match(dif.fix, /did you mean "diff"/);
  assert.equal(sparkles.key, 'ui.hints[2]');
  assert.equal(errorAt(check(t, { 'ui.hints': '"streaming"' }), 'ui.hints').code, 'wrong_type');
});

test('unknown keys are warnings with their line and a did-you-mean, at the top level and inside tables', (t) => {
  const report = check(t, {}, ['author = "x"', 'resources.cpus = 1', 'capabilites = []']);
  assert.ok(report.manifest);
  const warnings = warningsOf(report);
  assert.deepEqual(
    warnings.map((w) => [w.key, w.line, w.code]),
    [
      ['author', 11, 'unknown_key'],
      ['capabilites', 13, 'unknown_key'],
      ['resources.cpus', 12, 'unknown_key'],
    ],
  );
  assert.match(warnings[1].fix, /did you mean "capabilities"/);
  assert.match(warnings[2].fix, /did you mean "resources\.cpu"/);
});

test('description and ui.example_prompt are optional text the launcher shows; absent they are null, a wrong type is a warning and left out', (t) => {
  const given = check(t, {}, ['description = "  Lists the files.  "', 'ui.example_prompt = "list them"']);
  assert.equal(given.manifest?.description, 'Lists the files.');
  assert.equal(given.manifest?.examplePrompt, 'list them');
  assert.deepEqual(warningsOf(given), []);

  const absent = check(t);
  assert.equal(absent.manifest?.description, null);
  assert.equal(absent.manifest?.examplePrompt, null);

  const wrong = check(t, {}, ['description = 42', 'ui.example_prompt = ["a"]']);
  assert.ok(wrong.manifest, 'a blurb of the wrong type does not stop the agent from loading');
  assert.equal(wrong.manifest.description, null);
  assert.equal(wrong.manifest.examplePrompt, null);
  assert.deepEqual(
    warningsOf(wrong).map((w) => [w.key, w.code]),
    [
      ['description', 'wrong_type'],
      ['ui.example_prompt', 'wrong_type'],
    ],
  );
});

test('every error is reported at once, each on its own line, and loadManifest throws them all in a ManifestError', (t) => {
  const report = check(t, { version: '"1"', sandbox: '"vm"', capabilities: '["telepathy"]', 'resources.mem': '"1MB"' });
  assert.deepEqual(
    errorsOf(report).map((issue) => [issue.key, issue.line]),
    [
      ['version', LINE.version],
      ['sandbox', LINE.sandbox],
      ['capabilities[0]', LINE.capabilities],
      ['resources.mem', LINE.mem],
    ],
  );
  assert.match(formatIssue(errorsOf(report)[0]), /manifest\.toml:3: error: version: expected a semantic version .*, found the string "1"\. Fix: write version = "1\.0\.0"$/);
  assert.throws(
    () => loadManifest(report.folder),
    (error: unknown) => error instanceof ManifestError && error.issues.length === 4 && /4 errors/.test(error.message) && /telepathy/.test(error.message),
  );
});

test('keys in [table] form are found on their lines too, also after a multi-line array', (t) => {
  const dir = tempDir('manifest');
  t.after(dir.cleanup);
  const text = `schema_version = "0.1"
name = "Tables"
version = "1.0.0"
entry = "agent.wasm"
sandbox = "wasm"
capabilities = [
  "codegen",
  "files.read = no",
]
oauth_scopes = []

[resources]
cpu = "half"
mem = "64Mi"

[ui]
hints = ["log"]
`;
  const report = readManifest(writeAgent(dir.path, 'tables', text));
  assert.equal(errorAt(report, 'capabilities[1]').line, 6);
  assert.equal(errorAt(report, 'resources.cpu').line, 13);
});

test('a folder without manifest.toml says so and how to fix it', (t) => {
  const dir = tempDir('manifest');
  t.after(dir.cleanup);
  const report = readManifest(dir.path);
  const [issue] = report.issues;
  assert.equal(issue.code, 'file_unreadable');
  assert.match(issue.found, /no manifest\.toml in/);
  assert.equal(report.sha256, null);
});
