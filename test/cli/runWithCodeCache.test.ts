import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { tempDir } from '../helpers';

const LOADER = pathToFileURL(join(__dirname, '..', '..', 'bin', 'runWithCodeCache.mjs')).href;

/** Runs `bundle` the way bin/omni.mjs does, in a process of its own (the cache is written as it exits). */
function run(bundle: string): { status: number | null; stdout: string; stderr: string } {
  const script = `import { runWithCodeCache } from ${JSON.stringify(LOADER)}; runWithCodeCache(${JSON.stringify(bundle)});`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A CommonJS bundle that reports what `require` would have given it. */
function writeBundle(dir: string, greeting: string): string {
  writeFileSync(join(dir, 'helper.cjs'), 'module.exports = { answer: 42 };\n');
  const bundle = join(dir, 'bundle.cjs');
  writeFileSync(
    bundle,
    [
      `const { answer } = require('./helper.cjs');`,
      `module.exports.ready = true;`,
      `console.log(JSON.stringify({ greeting: ${JSON.stringify(greeting)}, answer, dirname: __dirname, filename: __filename, self: this === module.exports }));`,
    ].join('\n'),
  );
  return bundle;
}

test('a bundle runs as require would run it, and its code cache is written beside it for the next start', (t) => {
  const dir = tempDir('code-cache');
  t.after(dir.cleanup);
  const bundle = writeBundle(dir.path, 'hello');
  const first = run(bundle);
  assert.equal(first.status, 0, first.stderr);
  assert.deepEqual(JSON.parse(first.stdout), { greeting: 'hello', answer: 42, dirname: dir.path, filename: bundle, self: true });
  const cacheFile = `${bundle}.v8-cache`;
  assert.ok(existsSync(cacheFile), 'no code cache after the first run');
  const cache = readFileSync(cacheFile);
  assert.ok(cache.length > 0);

  // Accepted by V8 the second time, so left as it is (a refused one would be written again).
  const second = run(bundle);
  assert.equal(second.status, 0, second.stderr);
  assert.equal(JSON.parse(second.stdout).greeting, 'hello');
  assert.deepEqual(readFileSync(cacheFile), cache);
});

test('a changed bundle (also one of the same length) or a damaged cache is compiled as usual and the cache made again', (t) => {
  const dir = tempDir('code-cache');
  t.after(dir.cleanup);
  const bundle = writeBundle(dir.path, 'hello');
  assert.equal(run(bundle).status, 0);
  const cacheFile = `${bundle}.v8-cache`;
  const first = readFileSync(cacheFile);

  writeBundle(dir.path, 'rebuilt');
  const rebuilt = run(bundle);
  assert.equal(rebuilt.status, 0, rebuilt.stderr);
  assert.equal(JSON.parse(rebuilt.stdout).greeting, 'rebuilt', 'the stale cache ran the old code');
  assert.notDeepEqual(readFileSync(cacheFile), first, 'the stale cache was kept');

  // V8 itself checks a cache against the source's length only: a rebuild of the same length must not run old code.
  writeBundle(dir.path, 'howdy!!');
  const sameLength = run(bundle);
  assert.equal(sameLength.status, 0, sameLength.stderr);
  assert.equal(JSON.parse(sameLength.stdout).greeting, 'howdy!!', 'a cache made from other source of the same length ran');

  writeFileSync(cacheFile, 'not a V8 code cache');
  const damaged = run(bundle);
  assert.equal(damaged.status, 0, damaged.stderr);
  assert.equal(JSON.parse(damaged.stdout).greeting, 'howdy!!');
  assert.ok(readFileSync(cacheFile).length > 100, 'the damaged cache was not replaced');
});

test("a bundle's error at start still ends the command with that error", (t) => {
  const dir = tempDir('code-cache');
  t.after(dir.cleanup);
  const bundle = join(dir.path, 'bundle.cjs');
  writeFileSync(bundle, "throw new Error('the bundle could not start: no home folder');\n");
  const result = run(bundle);
  assert.notEqual(result.status, 0);
  assert.match(result.stderr, /the bundle could not start: no home folder/);
  assert.match(result.stderr, /bundle\.cjs:1/, 'the stack does not point into the bundle');
});
