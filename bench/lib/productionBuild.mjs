// A production build (NODE_ENV=production: minified, React's production mode) made with the project's own
// scripts/build.mjs in a temporary copy of the tree, so dist/ (the development build other tools use) is left alone.
// With the renderer's bench hooks kept (OMNI_BENCH_HOOKS=1): the throughput parts read window.__omniTerminalStats,
// which a build for users leaves out (scripts/rendererBundle.mjs).
import { spawnSync } from 'node:child_process';
import { cpSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './cleanup.mjs';

const SKIP = new Set(['node_modules', 'dist', '.git', '.cache', 'release', 'test-results', 'playwright-report', '.omni-home']);

/** Returns the root of the copy (run its `bin/omni.mjs`); throws with the build output when the build fails. */
export function productionBuild(root) {
  const copy = tempDir('production-build');
  cpSync(root, copy, { recursive: true, filter: (src) => !SKIP.has(src.slice(root.length + 1).split('/')[0]) });
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
  const r = spawnSync(process.execPath, [join(copy, 'scripts/build.mjs')], { cwd: copy, encoding: 'utf8', env: { ...process.env, NODE_ENV: 'production', OMNI_BENCH_HOOKS: '1' } });
  if (r.status !== 0) throw new Error(`production build failed:\n${`${r.stdout}${r.stderr}`.trim().split('\n').slice(-8).join('\n')}`);
  return copy;
}
