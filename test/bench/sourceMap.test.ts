import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { build } from 'esbuild';
import { sourceAt } from '../../bench/lib/sourceMap.mjs';

/** 0-based line and column of the first occurrence of `needle` in `text`. */
function positionOf(text: string, needle: string): { line: number; column: number } {
  const index = text.indexOf(needle);
  assert.ok(index >= 0, `${needle} is in the bundle`);
  const before = text.slice(0, index).split('\n');
  return { line: before.length - 1, column: before.at(-1)!.length };
}

// The bench's profile summaries name the module a renderer function came from; in the production build (minified,
// a few long lines) only the source map knows.
test('positions in a minified bundle map back to the module they came from', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'omni-sourcemap-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'alpha.ts'), "export function alpha(n: number) { return n > 1 ? 'alpha-marker-' + n : alpha(n + 1); }\n");
  writeFileSync(join(dir, 'beta.ts'), "export function beta(s: string) { return s.length > 3 ? 'beta-marker-' + s : beta(s + s); }\n");
  writeFileSync(join(dir, 'main.ts'), "import { alpha } from './alpha';\nimport { beta } from './beta';\n(globalThis as any).out = [beta('x'), alpha(0), 'main-marker'];\n");
  const result = await build({ entryPoints: [join(dir, 'main.ts')], bundle: true, minify: true, sourcemap: 'external', write: false, outdir: join(dir, 'out') });
  const js = result.outputFiles.find((f) => f.path.endsWith('.js'))!.text;
  const map = JSON.parse(result.outputFiles.find((f) => f.path.endsWith('.js.map'))!.text) as { sources: string[]; mappings: string };
  const at = sourceAt(map);
  for (const [marker, file] of [['alpha-marker', 'alpha.ts'], ['beta-marker', 'beta.ts'], ['main-marker', 'main.ts']]) {
    const { line, column } = positionOf(js, marker);
    assert.ok(at(line, column)?.endsWith(file), `${marker} at ${line}:${column} maps to ${at(line, column)}, not ${file}`);
  }
  assert.equal(at(js.split('\n').length + 5, 0), undefined, 'a line past the end maps to nothing');
});
