// Gemini CLI's settings in the agent's own HOME: usage statistics off (no posts to Google's logging host, no
// installation id on model requests), the user's other settings kept, a file that is not JSON rewritten with a warning.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { materializeGeminiSettings } from '../../src-main/node/acp/geminiSettings';
import { tempDir } from '../helpers';

test('materializeGeminiSettings turns usage statistics off and keeps every other setting', (t) => {
  const home = tempDir('gemini-settings');
  t.after(home.cleanup);
  const file = join(home.path, '.gemini', 'settings.json');
  assert.deepEqual(materializeGeminiSettings(home.path), []);
  assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { privacy: { usageStatisticsEnabled: false } });
  if (process.platform !== 'win32') assert.equal(statSync(file).mode & 0o777, 0o600);

  writeFileSync(file, JSON.stringify({ model: { name: 'gemini-2.5-flash' }, privacy: { usageStatisticsEnabled: true, other: 1 } }));
  materializeGeminiSettings(home.path);
  assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { model: { name: 'gemini-2.5-flash' }, privacy: { usageStatisticsEnabled: false, other: 1 } });

  writeFileSync(file, '{ not json');
  const [warning] = materializeGeminiSettings(home.path);
  assert.match(warning, /was not valid JSON/);
  assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { privacy: { usageStatisticsEnabled: false } });
});

test('materializeGeminiSettings makes the .gemini folder when the HOME has none', (t) => {
  const home = tempDir('gemini-settings-new');
  t.after(home.cleanup);
  mkdirSync(join(home.path, 'sub'));
  materializeGeminiSettings(join(home.path, 'sub'));
  assert.ok(statSync(join(home.path, 'sub', '.gemini')).isDirectory());
});
