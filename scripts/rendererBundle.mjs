// How the renderer is bundled, shared by the build (scripts/build.mjs → dist/renderer) and the test that checks what
// a production bundle leaves out (test/renderer/productionBundle.test.ts), so the test sees what `npm run dist` ships.
import { build } from 'esbuild';
import { zodEnglishOnly } from './zodEnglishOnly.mjs';
import { join } from 'node:path';

/**
 * Whether the renderer keeps its test and benchmark hooks (window.__omniTerminalStats, which the e2e specs and the
 * bench read): always in a development build; in a production build only when OMNI_BENCH_HOOKS=1, which the bench's
 * own production build sets (bench/lib/productionBuild.mjs) since it measures the production renderer. A build for
 * users (`npm run dist`) has none: the code behind `__OMNI_BENCH_HOOKS__` is dropped by the minifier.
 */
export function benchHooksWanted(production, env = process.env) {
  return !production || env.OMNI_BENCH_HOOKS === '1';
}

/** Bundles the renderer's entry (src-renderer/app/main.tsx) into `outdir`, or returns its files with `write: false`. */
export function bundleRenderer({ root, outdir, production, benchHooks = benchHooksWanted(production), write = true }) {
  return build({
    entryPoints: { app: join(root, 'src-renderer/app/main.tsx') },
    outdir,
    write,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome120'],
    minify: production,
    sourcemap: true,
    jsx: 'automatic',
    loader: { '.woff2': 'file', '.woff': 'file', '.svg': 'file', '.png': 'file' },
    define: {
      'process.env.NODE_ENV': JSON.stringify(production ? 'production' : 'development'),
      __OMNI_BENCH_HOOKS__: JSON.stringify(benchHooks),
    },
    logLevel: 'warning',
    plugins: [zodEnglishOnly],
  });
}
