// The README's test command: typecheck, lint, unit + integration tests (node:test), then end-to-end (Playwright).
// `node scripts/test.mjs unit` or `... e2e` runs one phase. Prints one closing line: "tests: N passed, N failed".
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const root = process.cwd();
const only = process.argv[2];
const phases = only ? [only] : ['typecheck', 'lint', 'build', 'unit', 'e2e'];
let passed = 0;
let failed = 0;
let skipped = 0;

function findFiles(dir, suffix) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return name === 'node_modules' || name === 'fixtures' ? [] : findFiles(full, suffix);
    return full.endsWith(suffix) ? [relative(root, full)] : [];
  });
}

/** Runs a command, echoing its output, and returns its exit code and full stdout. */
function run(cmd, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      process.stdout.write(chunk);
    });
    child.on('close', (code) => resolve({ code: code ?? 1, out }));
  });
}

const steps = {
  typecheck: () => run(process.execPath, ['scripts/typecheck.mjs']),
  lint: () => run(process.execPath, ['node_modules/eslint/bin/eslint.js', '.']),
  build: () => run(process.execPath, ['scripts/build.mjs']),
  async unit() {
    // The harness tests drive the real Claude Code and Codex CLIs: installed on demand into .cache/harness-clis
    // (test-only, ~770 MB, kept out of the project's dependencies), once; their tests say so if this failed.
    const clis = await run(process.execPath, ['scripts/install-harness-clis.mjs']);
    if (clis.code !== 0) console.log('test: the real harness CLIs could not be installed; their tests are skipped and reported as such');
    const files = findFiles(join(root, 'test'), '.test.ts').sort();
    // An empty home of their own, as the e2e fixture gives its hosts: the shells the tests start read no startup
    // files of the machine's user. A ~/.bashrc running `pyenv init` made every later bash hang once a test had closed
    // a terminal while its shell was starting (pyenv's rehash lock was left behind): 15 tests timed out in one run.
    const home = mkdtempSync(join(tmpdir(), 'omni-test-home-'));
    const result = await run(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=tap', ...files], { OMNI_TEST: '1', HOME: home });
    rmSync(home, { recursive: true, force: true });
    passed += Number(/^# pass (\d+)/m.exec(result.out)?.[1] ?? 0);
    failed += Number(/^# fail (\d+)/m.exec(result.out)?.[1] ?? 0);
    skipped += Number(/^# skipped (\d+)/m.exec(result.out)?.[1] ?? 0);
    return result;
  },
  async e2e() {
    if (findFiles(join(root, 'e2e'), '.spec.ts').length === 0) return { code: 0, out: '' };
    const result = await run(process.execPath, ['node_modules/@playwright/test/cli.js', 'test', '-c', 'e2e/playwright.config.ts']);
    passed += Number(/(\d+) passed/.exec(result.out)?.[1] ?? 0);
    failed += Number(/(\d+) failed/.exec(result.out)?.[1] ?? 0);
    return result;
  },
};

let exitCode = 0;
for (const phase of phases) {
  const step = steps[phase];
  if (!step) {
    console.error(`test: unknown phase "${phase}"; use one of ${Object.keys(steps).join(', ')}`);
    process.exit(2);
  }
  console.log(`\n=== ${phase} ===`);
  const started = Date.now();
  const { code } = await step();
  console.log(`=== ${phase}: ${code === 0 ? 'ok' : `FAILED (exit ${code})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (code !== 0) {
    exitCode = 1;
    if (phase !== 'unit' && phase !== 'e2e') failed++;
  }
}
console.log(`\ntests: ${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped (not counted as passed)` : ''}`);
process.exit(exitCode);
