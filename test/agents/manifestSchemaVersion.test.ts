import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CURRENT_SCHEMA_VERSION, errorsOf, formatIssue, readManifest, SUPPORTED_SCHEMA_VERSIONS } from '../../src-main/node/agents/manifest';
import { tempDir } from '../helpers';
import { manifestText, writeAgent } from './agentFolders';

function read(t: { after: (fn: () => void) => void }, text: string) {
  const dir = tempDir('schema');
  t.after(dir.cleanup);
  const report = readManifest(writeAgent(dir.path, 'agent', text));
  return { report, errors: errorsOf(report) };
}

test('this build reads schema 0.1', () => {
  assert.equal(CURRENT_SCHEMA_VERSION, '0.1');
  assert.deepEqual(SUPPORTED_SCHEMA_VERSIONS, ['0.1']);
});

test('a newer schema_version is rejected alone (no half-read of fields it may redefine), naming the supported versions', (t) => {
  // The other fields are wrong for 0.1 too, but under 0.2 they might mean something else: only the version is reported.
  const { report, errors } = read(t, manifestText({ schema_version: '"0.2"', sandbox: '"quantum"' }));
  assert.equal(report.manifest, null);
  assert.equal(errors.length, 1);
  const [issue] = errors;
  assert.equal(issue.code, 'unsupported_schema_version');
  assert.equal(issue.key, 'schema_version');
  assert.equal(issue.line, 1);
  assert.equal(issue.found, 'unsupported "0.2"');
  assert.match(issue.expected, /"0\.1"/);
  assert.match(issue.expected, /omni agent migrate/);
  assert.match(issue.fix, /newer Omniscient Shell; update the shell/);
});

test('an older schema_version with a migration path points at omni agent migrate for that folder', (t) => {
  const { report, errors } = read(t, manifestText({ schema_version: '"0.0"' }));
  assert.equal(errors.length, 1);
  assert.equal(errors[0].code, 'unsupported_schema_version');
  assert.ok(errors[0].fix.includes(`omni agent migrate ${report.folder}`), errors[0].fix);
});

test('an unknown version string, a number and a missing version are each explained', (t) => {
  const weird = read(t, manifestText({ schema_version: '"banana"' })).errors[0];
  assert.equal(weird.code, 'unsupported_schema_version');
  assert.match(weird.fix, /use schema_version = "0\.1"/);
  const number = read(t, manifestText({ schema_version: '0.1' })).errors[0];
  assert.equal(number.code, 'wrong_type');
  assert.equal(number.found, 'the number 0.1');
  assert.match(number.fix, /quote it: schema_version = "0\.1"/);
  const missing = read(t, manifestText({ schema_version: null })).errors[0];
  assert.equal(missing.code, 'missing_key');
});

test('malformed TOML is reported with its line and column, and nothing else is guessed', (t) => {
  const { report, errors } = read(t, 'schema_version = "0.1"\nname = "Broken\nversion = "0.1.0"\n');
  assert.equal(report.manifest, null);
  assert.equal(errors.length, 1);
  const [issue] = errors;
  assert.equal(issue.code, 'toml_syntax');
  assert.equal(issue.line, 2);
  assert.equal(typeof issue.column, 'number');
  assert.match(formatIssue(issue), /manifest\.toml:2:\d+: error: expected valid TOML, found .+\. Fix: correct the TOML at line 2/);
  assert.match(issue.fix, /name = "Broken/, 'the fix shows the offending line');
  const duplicate = read(t, manifestText({}, ['name = "Again"'])).errors[0];
  assert.equal(duplicate.code, 'toml_syntax');
  assert.equal(duplicate.line, 11);
});
