import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { test } from 'node:test';

const root = resolve(__dirname, '../..');
// Spec §2.1/§2.2: continuity is `continuation`, correlation is `cpSessionId` / `runId`. Built from parts so this
// file does not contain the names it looks for.
const LEGACY = ['harness' + 'SessionId', 'external' + 'SessionId', 'external' + 'RunId'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(full);
    return /\.(ts|tsx|mts|cts|js|mjs)$/.test(entry.name) ? [full] : [];
  });
}

test('no harnessSessionId / externalSessionId / externalRunId anywhere in src-main or src-preload', () => {
  const hits: string[] = [];
  for (const file of [...sourceFiles(join(root, 'src-main')), ...sourceFiles(join(root, 'src-preload'))]) {
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, i) => {
      for (const name of LEGACY) if (line.includes(name)) hits.push(`${relative(root, file)}:${i + 1}: ${name}`);
    });
  }
  assert.deepEqual(hits, [], `use continuation / cpSessionId / runId instead (spec §2):\n${hits.join('\n')}`);
});
