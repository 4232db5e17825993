// The README's test command: the build, then unit + integration tests (node:test) with typecheck and lint beside them
// at a low CPU priority, then end-to-end (Playwright). `node scripts/test.mjs PHASE` runs one phase: checks
// (typecheck, lint and build at once), typecheck, lint, build, unit, e2e, or stress (the stress tests at their full
// scale: `npm run test:stress`, run before a release). Prints the ten slowest unit tests, then one closing line:
// "tests: N passed, N failed".
//
// The unit test files run as bundles (scripts/testBundles.mjs, built at the start of the phase), not through tsx.
//
// Environment: OMNI_TEST_CONCURRENCY (unit test files run at once; default 3), OMNI_STRESS=1 (stress tests at full
// scale; see test/stressScale.ts).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { buildTestBundles, bundleOf, findTestFiles, sourceOf, testBundleDir } from './testBundles.mjs';

const root = process.cwd();
const only = process.argv[2];
const phases = only ? [only] : ['build', 'unit+checks', 'e2e'];
// Most unit test files spend their time waiting on processes, sockets and timers, not on the CPU: three files at
// once keep two cores busy. Files share nothing that would clash (each makes its own homes, ports and keyrings).
const concurrency = Math.max(1, Number(process.env.OMNI_TEST_CONCURRENCY ?? 3) || 1);
// The nice value of the checks that run beside the unit tests (19 is the lowest priority).
const BACKGROUND_PRIORITY = 15;
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

/**
 * Runs a command and returns its exit code and full stdout. Its output is echoed as it comes, or (`quiet`) printed
 * whole at the end, so commands run side by side do not interleave their lines.
 */
function run(cmd, args, env = {}, { quiet = false, background = false } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', quiet ? 'pipe' : 'inherit'], env: { ...process.env, ...env } });
    // A background command gets the CPU the foreground leaves idle; what it starts inherits its priority.
    if (background && child.pid) setPriority(child.pid, BACKGROUND_PRIORITY);
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (!quiet) process.stdout.write(chunk);
    });
    child.stderr?.on('data', (chunk) => (err += chunk));
    child.on('close', (code) => {
      if (quiet) process.stdout.write(out + err);
      resolve({ code: code ?? 1, out });
    });
  });
}

/**
 * Runs node:test over the test files `files` (their bundles); counts what passed, failed and was skipped; prints the
 * slowest tests.
 */
async function nodeTests(files, env) {
  const started = Date.now();
  await buildTestBundles(root, files);
  console.log(`--- ${files.length} test files bundled into ${testBundleDir} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  // An empty home of their own, as the e2e fixture gives its hosts: the shells the tests start read no startup
  // files of the machine's user (a ~/.bashrc running `pyenv init` made later bash processes hang on pyenv's lock).
  const home = mkdtempSync(join(tmpdir(), 'omni-test-home-'));
  const durations = join(home, 'durations.json');
  const result = await run(
    process.execPath,
    [
      '--enable-source-maps',
      '--test',
      `--test-concurrency=${concurrency}`,
      '--test-reporter=tap',
      '--test-reporter-destination=stdout',
      '--test-reporter=./scripts/testDurations.mjs',
      `--test-reporter-destination=${durations}`,
      ...files.map(bundleOf),
    ],
    { OMNI_TEST: '1', HOME: home, ...env },
  );
  passed += Number(/^# pass (\d+)/m.exec(result.out)?.[1] ?? 0);
  failed += Number(/^# fail (\d+)/m.exec(result.out)?.[1] ?? 0);
  skipped += Number(/^# skipped (\d+)/m.exec(result.out)?.[1] ?? 0);
  printSlowest(durations);
  rmSync(home, { recursive: true, force: true });
  return result;
}

function printSlowest(file) {
  let tests;
  try {
    tests = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return;
  }
  const slowest = tests.sort((a, b) => b.ms - a.ms).slice(0, 10);
  if (slowest.length === 0) return;
  console.log('\n=== the ten slowest tests');
  for (const test of slowest) {
    // node:test names the file through the bundle's source map (the .ts), or the bundle itself.
    const file = test.file ? relative(root, test.file.startsWith('file:') ? new URL(test.file).pathname : test.file) : '?';
    const where = file.endsWith('.cjs') ? sourceOf(file) : file;
    console.log(`${(test.ms / 1000).toFixed(1).padStart(7)} s  ${where}: ${test.name.length > 100 ? `${test.name.slice(0, 99)}…` : test.name}`);
  }
}

/** The test files that scale with OMNI_STRESS (they call stressScale). */
const stressFiles = () => findTestFiles(root).filter((file) => readFileSync(file, 'utf8').includes('stressScale('));

/**
 * The real programs some unit tests drive, installed on demand, once (test-only, kept out of the project's
 * dependencies): the Claude Code and Codex CLIs into .cache/harness-clis (several hundred MB), the ACP adapters
 * (claude-agent-acp, codex-acp, Gemini CLI) into .cache/acp-agents. Their tests say so, and are reported as
 * skipped, if it failed.
 */
let installs;
function installTestCommands() {
  installs ??= (async () => {
    const [clis, acpAgents] = await Promise.all([
      run(process.execPath, ['scripts/install-harness-clis.mjs'], {}, { quiet: true }),
      run(process.execPath, ['scripts/install-acp-agents.mjs'], {}, { quiet: true }),
    ]);
    if (clis.code !== 0) console.log('test: the real harness CLIs could not be installed; their tests are skipped and reported as such');
    if (acpAgents.code !== 0) console.log('test: the ACP adapters could not be installed; their tests are skipped and reported as such');
  })();
  return installs;
}

/** Runs the named checks side by side, each one's output printed whole when it ends; counts each failure. */
async function sideBySide(names, options = {}) {
  const results = await Promise.all(names.map(async (name) => {
    const started = Date.now();
    const result = await steps[name]({ quiet: true, ...options });
    console.log(`--- ${name}: ${result.code === 0 ? 'ok' : `FAILED (exit ${result.code})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return result;
  }));
  const bad = results.filter((r) => r.code !== 0).length;
  failed += bad;
  return { code: bad === 0 ? 0 : 1, out: '' };
}

const steps = {
  typecheck: (options) => run(process.execPath, ['scripts/typecheck.mjs'], {}, options),
  lint: (options) => run(process.execPath, ['node_modules/eslint/bin/eslint.js', '.'], {}, options),
  build: (options) => run(process.execPath, ['scripts/build.mjs'], {}, options),
  checks: () => sideBySide(['typecheck', 'lint', 'build']),
  // The full run: the unit tests, with typecheck and lint beside them in the background. The checks need none of the
  // tests' results; at a low priority they take the CPU the tests leave, and little of what the tests want, instead
  // of a phase of their own before them (docs/performance.md, "Test suite").
  async 'unit+checks'() {
    const [unit, checks] = await Promise.all([steps.unit(), sideBySide(['typecheck', 'lint'], { background: true })]);
    return { code: unit.code === 0 && checks.code === 0 ? 0 : 1, out: '' };
  },
  async unit() {
    await installTestCommands();
    // The files known to be long (stress tests, files re-run in a private keyring) start first, so the run does not
    // end on one of them with the other lanes idle.
    const long = (file) => /stressScale\(|rerunInPrivateKeyring\(/.test(readFileSync(file, 'utf8'));
    const files = findTestFiles(root).sort();
    return nodeTests([...files.filter(long), ...files.filter((file) => !long(file))], {});
  },
  stress: () => nodeTests(stressFiles().sort(), { OMNI_STRESS: '1' }),
  async e2e() {
    if (findFiles(join(root, 'e2e'), '.spec.ts').length === 0) return { code: 0, out: '' };
    const result = await run(process.execPath, ['node_modules/@playwright/test/cli.js', 'test', '-c', 'e2e/playwright.config.ts']);
    passed += Number(/(\d+) passed/.exec(result.out)?.[1] ?? 0);
    failed += Number(/(\d+) failed/.exec(result.out)?.[1] ?? 0);
    return result;
  },
};

let exitCode = 0;
async function runPhase(phase) {
  const step = steps[phase];
  console.log(`\n=== ${phase} ===`);
  const started = Date.now();
  const { code } = await step();
  console.log(`=== ${phase}: ${code === 0 ? 'ok' : `FAILED (exit ${code})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (code !== 0) {
    exitCode = 1;
    if (['typecheck', 'lint', 'build'].includes(phase)) failed++;
  }
}

const unknown = phases.find((phase) => !steps[phase]);
if (unknown) {
  console.error(`test: unknown phase "${unknown}"; use one of ${Object.keys(steps).join(', ')}`);
  process.exit(2);
}
// The unit tests' programs download while the build runs: the one waits on the network, the other on the CPU.
if (phases.includes('unit+checks')) void installTestCommands();
// One after the other: e2e beside the unit tests ran several times slower and timed out (docs/performance.md).
for (const phase of phases) await runPhase(phase);
console.log(`\ntests: ${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped (not counted as passed)` : ''}`);
process.exitCode = exitCode;
