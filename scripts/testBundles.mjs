// The unit test files, bundled for Node (`node scripts/test.mjs unit` runs these, not the TypeScript sources). Under
// tsx every import of every test file went through tsx's loader hooks in each test process: in a file that imports
// the host, that cost more CPU than the tests themselves (docs/performance.md, "Test suite"). One esbuild pass
// bundles every test file with the sources it imports; packages stay external, as the app's own bundles keep them.
//
// A bundle lives in .cache/test-js/ at the test file's own relative path, but every module in it still sees its own
// source location: `__dirname`, `__filename` and `import.meta.{dirname,filename,url}` are set per module to the
// TypeScript file's, so fixtures next to a test, assets found relative to a source file, and the workers and
// children the host starts from its sources (through tsx, as before) are found where they always were. A module's
// `require.main === module` is false: in a test bundle, no module is the program.
import { build } from 'esbuild';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

export const testBundleDir = '.cache/test-js';

/** Every `*.test.ts` under `dir` (fixture folders and node_modules skipped), relative to `root`. */
export function findTestFiles(root, dir = join(root, 'test')) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return name === 'node_modules' || name === 'fixtures' ? [] : findTestFiles(root, full);
    return full.endsWith('.test.ts') ? [relative(root, full)] : [];
  });
}

/** The bundle a test file runs as, relative to the project root. */
export const bundleOf = (testFile) => join(testBundleDir, testFile.replace(/\.ts$/, '.cjs'));

/** The test file a bundle was made from (the inverse of bundleOf). */
export const sourceOf = (bundle) => relative(testBundleDir, bundle).replace(/\.cjs$/, '.ts');

/** Gives each project module its own source location (see the top of this file). */
const sourceLocation = (root) => ({
  name: 'source-location',
  setup(context) {
    context.onLoad({ filter: /\.([cm]?[jt]s|tsx)$/ }, (args) => {
      if (args.path.includes(`${join(root, 'node_modules')}`)) return undefined;
      let text = readFileSync(args.path, 'utf8');
      const file = args.path;
      const dir = dirname(file);
      text = text
        .replaceAll('import.meta.dirname', JSON.stringify(dir))
        .replaceAll('import.meta.filename', JSON.stringify(file))
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(file).href))
        // A fixture that is also a program (`if (require.main === module) main()`) is only imported by a test here.
        .replaceAll('require.main === module', 'false');
      const header = [];
      if (/\b__dirname\b/.test(text)) header.push(`const __dirname = ${JSON.stringify(dir)};`);
      if (/\b__filename\b/.test(text)) header.push(`const __filename = ${JSON.stringify(file)};`);
      // On the first line, so the source map's line numbers stay those of the file.
      if (header.length > 0) text = `${header.join(' ')} ${text}`;
      return { contents: text, loader: /\.[cm]?js$/.test(file) ? 'js' : file.endsWith('x') ? 'tsx' : 'ts' };
    });
  },
});

/** Bundles `testFiles` (relative to `root`) into .cache/test-js/, replacing what was there. */
export async function buildTestBundles(root, testFiles) {
  const outdir = join(root, testBundleDir);
  rmSync(outdir, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: testFiles,
    outdir,
    outbase: '.',
    outExtension: { '.js': '.cjs' },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: ['node20'],
    packages: 'external',
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'warning',
    plugins: [sourceLocation(root)],
  });
}
