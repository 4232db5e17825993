import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';

const root = join(__dirname, '../..');

interface RendererBundle {
  benchHooksWanted(production: boolean, env?: Record<string, string | undefined>): boolean;
  bundleRenderer(options: { root: string; outdir: string; production: boolean; benchHooks?: boolean; write?: boolean }): Promise<{
    outputFiles: { path: string; text: string }[];
  }>;
}

const load = async () => (await import(pathToFileURL(join(root, 'scripts/rendererBundle.mjs')).href)) as RendererBundle;

/** The renderer's JavaScript as the build makes it, kept in memory (nothing is written to dist/). */
async function appBundle(production: boolean, benchHooks: boolean): Promise<string> {
  const { bundleRenderer } = await load();
  const result = await bundleRenderer({ root, outdir: join(root, 'dist/renderer-test'), production, benchHooks, write: false });
  const app = result.outputFiles.find((f) => f.path.endsWith('/app.js'));
  assert.ok(app, 'the bundle has an app.js');
  return app.text;
}

test('the bench hooks are kept in development builds and in the bench production build, not in a build for users', async () => {
  const { benchHooksWanted } = await load();
  assert.equal(benchHooksWanted(false, {}), true, 'development: e2e specs read them');
  assert.equal(benchHooksWanted(true, {}), false, '`npm run dist`');
  assert.equal(benchHooksWanted(true, { OMNI_BENCH_HOOKS: '1' }), true, 'the bench measures the production renderer');
});

test('a production renderer bundle for users has no window.__omniTerminalStats; with OMNI_BENCH_HOOKS it has', async () => {
  const shipped = await appBundle(true, false);
  assert.ok(!shipped.includes('__omniTerminalStats'), 'the hook was left in the production bundle');
  assert.ok(!shipped.includes('__OMNI_BENCH_HOOKS__'), 'the flag is replaced at build time, not looked up at run time');
  const forBench = await appBundle(true, true);
  assert.ok(forBench.includes('__omniTerminalStats'), 'the bench production build keeps the hook (else the check above proves nothing)');
});

test("the renderer carries zod's English messages alone, not its other 63 languages", async () => {
  const shipped = await appBundle(true, false);
  // Words in ASCII: the minifier writes other characters as escapes.
  assert.ok(!shipped.includes('erwartet'), "zod's German messages are in the bundle");
  assert.ok(!shipped.includes('recibido'), "zod's Spanish messages are in the bundle");
  assert.ok(shipped.includes('Invalid input'), "zod's English messages are missing from the bundle");
});
