import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse } from 'smol-toml';
import { tomlKeyLines } from '../../src-main/node/agents/manifest/tomlKeyLines';

test('key lines: dotted, quoted and table keys land on their lines; text inside strings and arrays is not a key', () => {
  const text = [
    'schema_version = "0.1"', // 1
    'description = """', // 2
    'name = "not a key, inside a string"', // 3
    '"""', // 4
    'capabilities = [', // 5
    '  "x = y",', // 6
    '  # entry = "in a comment"', // 7
    ']', // 8
    '"quoted key" = 1', // 9
    'resources = { cpu = "1", mem = "1Gi" }', // 10
    '', // 11
    '[ui]', // 12
    'hints = []', // 13
    "site.'a.b' = 2", // 14
    '[[extra]]', // 15
    'n = 1', // 16
  ].join('\n');
  parse(text); // the scanner only ever sees text that parsed
  const lines = tomlKeyLines(text);
  assert.equal(lines.get('schema_version'), 1);
  assert.equal(lines.get('description'), 2);
  assert.equal(lines.has('name'), false);
  assert.equal(lines.get('capabilities'), 5);
  assert.equal(lines.has('x'), false);
  assert.equal(lines.has('entry'), false);
  assert.equal(lines.get('quoted key'), 9);
  assert.equal(lines.get('resources'), 10);
  assert.equal(lines.get('ui'), 12);
  assert.equal(lines.get('ui.hints'), 13);
  assert.equal(lines.get('ui.site.a.b'), 14);
  assert.equal(lines.get('extra.n'), 16);
});
