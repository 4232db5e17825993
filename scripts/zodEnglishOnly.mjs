// An esbuild plugin for every bundle the app ships: zod's namespace (`z`, and `z.core`) re-exports all of its 64
// locales, and a namespace that is used as an object cannot be tree-shaken, so each bundle carried every language's
// error messages (about 260 KB minified) while the app only ever speaks English, zod's default. The plugin gives
// zod's locale index English alone; `z.locales.en` stays, any other locale is absent at run time (types unchanged).
// Figures: docs/performance.md ("Host start and first paint").
import { dirname } from 'node:path';

export const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /\/locales\/index\.js$/ }, (args) => {
      if (!/[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)) return undefined;
      return { path: `${dirname(args.importer)}/${args.path}`, namespace: 'zod-english-only' };
    });
    build.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => ({
      contents: "export { default as en } from './en.js';\n",
      resolveDir: dirname(args.path),
    }));
  },
};
