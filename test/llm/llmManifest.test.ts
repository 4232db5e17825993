// How a model-backed agent is declared: an ordinary schema-0.1 manifest whose entry is a *.llm.toml definition
// (sandbox = "wasm": it runs no program). The definition is checked when the manifest is, so a broken one shows as a
// broken agent with the reason, not only when it is started.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { errorsOf, formatIssue, readManifest } from '../../src-main/node/agents/manifest';
import { tempDir } from '../helpers';
import { manifestFor } from './llmHost';

function agentFolder(t: { after(fn: () => void): void }, manifest: string, definition: string): string {
  const dir = tempDir('llmagent');
  t.after(dir.cleanup);
  writeFileSync(join(dir.path, 'manifest.toml'), manifest);
  writeFileSync(join(dir.path, 'agent.llm.toml'), definition);
  return dir.path;
}

test('a manifest with a *.llm.toml entry and sandbox = "wasm" is a valid agent', (t) => {
  const report = readManifest(agentFolder(t, manifestFor('writer', 'anthropic'), 'provider = "anthropic"\n'));
  assert.deepEqual(errorsOf(report).map(formatIssue), []);
  assert.equal(report.manifest?.entry, 'agent.llm.toml');
  assert.deepEqual(report.manifest?.capabilities, ['oauth:anthropic.api']);
});

test('a broken definition, or sandbox = "native", is a manifest error naming the key and the fix', (t) => {
  const broken = errorsOf(readManifest(agentFolder(t, manifestFor('writer', 'anthropic'), 'provider = "anthropic"\nmodel_hint = "quick"\n'))).map(formatIssue);
  assert.equal(broken.length, 1);
  assert.match(broken[0], /entry/);
  assert.match(broken[0], /agent\.llm\.toml: model_hint: expected "fast" or "smart", found "quick"/);

  const native = errorsOf(readManifest(agentFolder(t, manifestFor('writer', 'anthropic').replace('sandbox = "wasm"', 'sandbox = "native"'), 'provider = "anthropic"\n'))).map(formatIssue);
  assert.equal(native.length, 1);
  assert.match(native[0], /sandbox/);
  assert.match(native[0], /set sandbox = "wasm": a model-backed agent runs no program/);
});
