// The electron stand-in (electronStandIn/) exists for the tests only: no product source imports it (or anything
// under test/), the build keeps `electron` external, and a bundle of the shell made as scripts/build.mjs makes it
// holds none of the stand-in's code.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { build } from 'esbuild';
import ts from 'typescript';
import { nodeExternals } from '../../scripts/nodeBundle.mjs';

const root = join(import.meta.dirname, '..', '..');
/** Text only the stand-in has; a bundle that contains it has the stand-in in it. */
const STAND_IN_MARKERS = ['electron stand-in', 'electronStandInParentPort', 'StandInSingletonLock'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(full);
    return /\.(ts|tsx|mts|cts|js|mjs)$/.test(name) ? [full] : [];
  });
}

function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return info.importedFiles.map((imported) => imported.fileName);
}

test('no product source imports from test/ (the electron stand-in included)', () => {
  const offenders: string[] = [];
  for (const layer of ['src-main', 'src-preload', 'src-renderer']) {
    for (const file of sourceFiles(join(root, layer))) {
      for (const specifier of importsOf(file)) {
        if (/(^|\/)test\//.test(specifier) || specifier.includes('electronStandIn')) offenders.push(`${relative(root, file)} → ${specifier}`);
      }
    }
  }
  assert.deepEqual(offenders, []);
});

test('the build keeps electron external and never names the stand-in', () => {
  assert.ok(nodeExternals.includes('electron'));
  for (const script of ['scripts/build.mjs', 'scripts/nodeBundle.mjs', 'scripts/rendererBundle.mjs', 'electron-builder.yml']) {
    const file = join(root, script);
    if (existsSync(file)) assert.doesNotMatch(readFileSync(file, 'utf8'), /electronStandIn|test\/electron-main/, script);
  }
});

test('the shell bundled as the build bundles it requires the real electron and holds no stand-in code', async () => {
  const result = await build({
    entryPoints: [join(root, 'src-main/electron-main/main.ts')],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: ['node20'],
    external: nodeExternals,
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0].text;
  assert.match(code, /require\("electron"\)/);
  for (const marker of STAND_IN_MARKERS) assert.ok(!code.includes(marker), marker);
  // And the bundles a build left in dist/, where there are some.
  const dist = join(root, 'dist', 'electron');
  for (const name of existsSync(dist) ? readdirSync(dist).filter((n) => n.endsWith('.js')) : []) {
    const text = readFileSync(join(dist, name), 'utf8');
    for (const marker of STAND_IN_MARKERS) assert.ok(!text.includes(marker), `dist/electron/${name} contains ${marker}`);
  }
});
