#!/usr/bin/env node
// `npm run bench`: figures, each next to a reference measured in the same run (timings on this machine drift
// several times over between runs, so only the ratios are comparable across runs). Prints a table, writes
// .cache/bench/latest.json, and exits 0 unless something could not be measured at all. What the figures led to:
// docs/performance.md.
//
// Knobs: BENCH_MB (payload size, default 50), BENCH_RUNS (throughput rounds, default 8),
// BENCH_ONLY=throughput,coldstart,paint,agentcards,acp,review,changes,ledger,agents,sandbox, BENCH_DIAG=0 (skip the profiled diagnostic runs), BENCH_NO_BUILD=1,
// BENCH_VARIANTS=shipped,dom (product variants), BENCH_COMPARE_ROOT=/other/checkout (an A/B run: a production build
// of that checkout is measured in the same run, alternating with this one, under the same conditions),
// BENCH_HOST_CPU_PROF=DIR (the throughput part's host runs with --cpu-prof; a summary is printed), BENCH_TRACE=1 (the
// diagnostic runs also record a Chromium trace: main-thread time by event; it slows the pages).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { CHROMIUM } from './lib/chromium.mjs';
import { installCleanupHandlers, removeDir, tempDir } from './lib/cleanup.mjs';
import { HostRpc, startHost } from './lib/host.mjs';
import { preparePayload } from './lib/payload.mjs';
import { productionBuild } from './lib/productionBuild.mjs';
import { summariseProfile } from './lib/profile.mjs';
import { firstLine, fmt, MB, ratioText, round, table, verdict } from './lib/stats.mjs';
import { measureColdStart } from './parts/coldStart.mjs';
import { measureFirstPaint } from './parts/firstPaint.mjs';
import { measureAgents } from './parts/agents.mjs';
import { measureAgentCards } from './parts/agentCards.mjs';
import { printAgentCards } from './parts/agentCardsReport.mjs';
import { measureAcp, printAcp } from './parts/acp.mjs';
import { measureReview, printReview } from './parts/review.mjs';
import { measureChanges, printChanges } from './parts/changes.mjs';
import { measureExec } from './parts/exec.mjs';
import { measureLedger } from './parts/ledger.mjs';
import { measureNativeSandbox } from './parts/nativeSandbox.mjs';
import { rendererTerminalOptions, ThroughputBench } from './parts/throughput.mjs';
import { printThroughput } from './parts/throughputReport.mjs';
import { measureThroughputRounds } from './parts/throughputRounds.mjs';
import { startReferenceServer } from './reference/server.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cacheDir = join(root, '.cache', 'bench');
const payloadMb = Number(process.env.BENCH_MB ?? 50);
const throughputRuns = Number(process.env.BENCH_RUNS ?? 8);
const only = new Set((process.env.BENCH_ONLY ?? 'ledger,agents,agentcards,acp,review,changes,exec,sandbox,coldstart,paint,throughput').split(',').map((s) => s.trim()));
const diagnostics = process.env.BENCH_DIAG !== '0';
/** Which product variants to run: as shipped (its own renderer choice) and with the DOM renderer forced. */
const variants = new Set((process.env.BENCH_VARIANTS ?? 'shipped,dom').split(',').map((s) => s.trim()));
const compareRoot = process.env.BENCH_COMPARE_ROOT;
const tracing = process.env.BENCH_TRACE === '1';

// Ratios are against a reference measured in the same run (issue 24): the host's start against a bare Node HTTP
// server's, the page's first paints against the bare xterm.js page's first contentful paint, the run card's
// throughput against the terminal's reference.
const GOALS = {
  throughputRatio: 0.9,
  runCardFirstCharMs: 100,
  runCardRatio: 0.9,
  hostReadyRatio: 1.5,
  firstPaintRatio: 1.25,
  sessionListRatio: 1.4,
  ledgerAppendRatio: 0.85,
  ledgerVerifyMs: 5000,
  agentWarmMs: 30,
  agentColdMs: 150,
  execPollMs: 1,
  execKillMs: 2000,
  sandboxOverheadMs: 25,
};

const log = (...args) => console.log(...args);
const started = Date.now();
installCleanupHandlers();

function chromiumVersion() {
  const r = spawnSync(CHROMIUM, ['--version'], { encoding: 'utf8' });
  return (r.stdout || '').trim() || 'unknown';
}

function buildApp() {
  if (process.env.BENCH_NO_BUILD === '1') return 'skipped (BENCH_NO_BUILD=1)';
  const r = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, encoding: 'utf8' });
  if (r.status === 0) return 'ok';
  const why = `${r.stdout}${r.stderr}`.trim().split('\n').slice(-8).join('\n');
  if (!existsSync(join(root, 'dist/cli/omni.cjs'))) throw new Error(`npm run build failed and there is no previous build:\n${why}`);
  log(`bench: the build failed; measuring the previous build in dist/:\n${why}`);
  return 'failed (previous dist/ used)';
}

async function buildReferencePage() {
  const out = join(cacheDir, 'reference');
  mkdirSync(out, { recursive: true });
  await build({
    entryPoints: { page: join(root, 'bench/reference/page.mjs') },
    outdir: out,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome120'],
    logLevel: 'warning',
  });
  copyFileSync(join(root, 'bench/reference/index.html'), join(out, 'index.html'));
  return { dir: out, source: readFileSync(join(out, 'page.js'), 'utf8') };
}

function rendererState() {
  const app = join(root, 'dist/renderer/app.js');
  if (!existsSync(app)) return { ok: false, why: 'dist/renderer/app.js does not exist (no renderer build)' };
  if (!readFileSync(app, 'utf8').includes('__omniTerminalStats')) return { ok: false, why: 'the renderer build does not maintain window.__omniTerminalStats yet' };
  return { ok: true };
}

const report = {
  startedAt: new Date().toISOString(),
  machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model, node: process.version, chromium: chromiumVersion() },
  goals: GOALS,
  errors: {},
};

async function part(name, fn) {
  try {
    report[name] = await fn();
  } catch (error) {
    report.errors[name] = error.stack ?? String(error);
    log(`bench: ${name} could not be measured: ${error.message}`);
  }
}

if (only.has('ledger')) {
  log('\nAudit ledger');
  await part('ledger', () => measureLedger({ log }));
}

if (only.has('agents')) {
  log('\nAgents');
  await part('agents', () => measureAgents({ log }));
}

if (only.has('exec')) {
  log('\nShell runs');
  await part('exec', () => measureExec({ log }));
}

if (only.has('sandbox')) {
  log('\nNative sandbox');
  await part('nativeSandbox', () => measureNativeSandbox({ log }));
}

if (only.has('agentcards')) {
  log('\nAgent output cards (production build)');
  await part('agentCards', () => measureAgentCards({ root, log }));
}

if (only.has('acp')) {
  log('\nACP conversation flood (production build)');
  await part('acp', () => measureAcp({ root, log }));
}

if (only.has('review')) {
  log('\nReview of a 5,000-line diff (production build)');
  await part('review', () => measureReview({ root, log }));
}

if (only.has('changes')) {
  log('\nChanges: workspace snapshots');
  await part('changes', () => measureChanges({ log }));
}

let host;
let rpc;
let throughputHost;
let throughputRpc;
let altHost;
let altRpc;
let reference;
const homes = [];
// The remaining parts need the app built and a host running; BENCH_ONLY without them (e.g. sandbox) skips both.
const hostParts = ['coldstart', 'paint', 'throughput'].some((name) => only.has(name));
if (hostParts) try {
  log(`bench: ${report.machine.cpus} cores, Node ${process.version}, ${report.machine.chromium}`);
  report.build = buildApp();
  log(`bench: build ${report.build}`);
  const renderer = rendererState();
  const referencePage = await buildReferencePage();
  const payload = preparePayload(join(cacheDir, `payload-${payloadMb}MB.txt`), Math.round(payloadMb * MB));
  log(`bench: payload ${payload.path}: ${payload.bytes} bytes, ${payload.lines} lines, ${payload.crlf.length} characters through the pty`);
  reference = await startReferenceServer({ dir: referencePage.dir, payload: payload.crlf });
  const xtermOptions = rendererTerminalOptions(root);

  if (only.has('coldstart')) {
    log('\nHost cold start');
    await part('coldStart', () => measureColdStart({ root, runs: 7, log }));
  }

  const home = tempDir('home');
  const workspace = tempDir('workspace');
  // The terminals' shells get an empty HOME: the user's ~/.bashrc (pyenv rehash, nvm, ...) would add seconds of
  // start-up and lock contention that have nothing to do with the product.
  const shellHome = tempDir('shell-home');
  homes.push(home, workspace, shellHome);
  // A production build (minified, React in production mode), as `npm run dist` ships it: what the throughput part
  // measures, and the first paint next to the development build. Made once, when first needed.
  let prodRoot;
  const production = () => {
    if (!prodRoot) {
      prodRoot = productionBuild(root);
      homes.push(prodRoot);
    }
    return prodRoot;
  };
  if (only.has('paint')) {
    // The development build (dist/), for the first paint's second row.
    host = await startHost(root, home, { ...process.env, HOME: shellHome });
    rpc = await HostRpc.connect(host.port, host.token);
    await rpc.call('session.create', { workspace, name: 'bench' });
  }

  if (only.has('paint')) {
    log('\nUI first paint');
    await part('firstPaint', async () => {
      if (!existsSync(join(root, 'dist/renderer/index.html'))) throw new Error('dist/renderer/index.html does not exist (no renderer build)');
      const bundleBytes = (dir) => statSync(join(dir, 'dist/renderer/app.js')).size + statSync(join(dir, 'dist/renderer/app.css')).size;
      const apps = [];
      let prodHost;
      let prodRpc;
      try {
        const prodHome = tempDir('prod-home');
        homes.push(prodHome);
        prodHost = await startHost(production(), prodHome, { ...process.env, HOME: shellHome });
        prodRpc = await HostRpc.connect(prodHost.port, prodHost.token);
        await prodRpc.call('session.create', { workspace, name: 'bench' });
        apps.push({ name: 'production build', url: prodHost.url, bundleBytes: bundleBytes(production()) });
      } catch (error) {
        log(`  (no production build: ${firstLine(error.message)}; measuring the development build only)`);
      }
      apps.push({ name: 'development build (dist/)', url: host.url, bundleBytes: bundleBytes(root) });
      try {
        return await measureFirstPaint({ apps, referenceUrl: reference.url({ mode: 'paint', ...xtermOptions }), runs: 5, log });
      } finally {
        prodRpc?.close();
        await prodHost?.stop();
      }
    });
  }

  if (only.has('throughput')) {
    log(`\nTerminal throughput (production build; ${payloadMb} MB, ${throughputRuns} rounds of the product and both bare pages, order flipping)`);
    await part('throughput', async () => {
      if (!renderer.ok) throw new Error(renderer.why);
      const hostProfileDir = process.env.BENCH_HOST_CPU_PROF;
      const throughputHome = tempDir('throughput-home');
      homes.push(throughputHome);
      throughputHost = await startHost(production(), throughputHome, { ...process.env, HOME: shellHome }, hostProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${hostProfileDir}`] : []);
      throughputRpc = await HostRpc.connect(throughputHost.port, throughputHost.token);
      const session = await throughputRpc.call('session.create', { workspace, name: 'bench' });
      const bench = new ThroughputBench({ host: throughputHost, rpc: throughputRpc, sessionId: session.id, payload, reference, xtermOptions, log, home: throughputHome });
      let alt;
      if (compareRoot) {
        const altRoot = productionBuild(compareRoot);
        const altHome = tempDir('alt-home');
        homes.push(altRoot, altHome);
        altHost = await startHost(altRoot, altHome, { ...process.env, HOME: shellHome });
        altRpc = await HostRpc.connect(altHost.port, altHost.token);
        const altSession = await altRpc.call('session.create', { workspace, name: 'bench (compare)' });
        alt = new ThroughputBench({ host: altHost, rpc: altRpc, sessionId: altSession.id, payload, reference, xtermOptions, log });
        log(`  A/B: also measuring a production build of ${compareRoot} (renderer ${variants.has('dom') ? 'DOM forced' : 'as shipped'})`);
      }
      return measureThroughputRounds({ bench, alt, compareRoot, variants, runs: throughputRuns, diagnostics, tracing, referencePageSource: referencePage.source, log });
    });
  }
} catch (error) {
  report.errors.setup = error.stack ?? String(error);
  log(`bench: setup failed: ${error.stack ?? error}`);
} finally {
  rpc?.close();
  throughputRpc?.close();
  altRpc?.close();
  await host?.stop();
  await throughputHost?.stop();
  await altHost?.stop();
  if (process.env.BENCH_HOST_CPU_PROF) report.hostProfile = summariseHostProfile(process.env.BENCH_HOST_CPU_PROF);
  await reference?.close();
  for (const dir of homes) removeDir(dir);
}

report.durationMs = Date.now() - started;
printReport(report);
mkdirSync(cacheDir, { recursive: true });
writeFileSync(join(cacheDir, 'latest.json'), JSON.stringify(report, (_k, v) => (typeof v === 'number' ? round(v, 2) : v), 2));
log(`\nbench: ${((Date.now() - started) / 1000).toFixed(0)} s; results in .cache/bench/latest.json`);
process.exit(Object.keys(report.errors).length > 0 ? 1 : 0);

function printLedger(l) {
  if (!l) return;
  log(`\n0. Audit ledger (medians; reference = the same rows into the same schema with a raw prepared INSERT and one SHA-256 each)`);
  log(
    table(
      ['', 'ledger', 'reference', 'ratio', 'goal', ''],
      [
        [
          `batched append, ${l.append.entries} entries (µs/entry)`,
          fmt(l.append.ledgerUsPerEntry, '', 2),
          fmt(l.append.referenceUsPerEntry, '', 2),
          ratioText(l.append.ratio),
          `≥ ${GOALS.ledgerAppendRatio.toFixed(2)}×`,
          verdict(l.append.ratio >= GOALS.ledgerAppendRatio),
        ],
        ...(l.append.cpu
          ? [[`  the same, CPU time (µs/entry; unaffected by waiting for a core)`, fmt(l.append.cpu.ledgerUsPerEntry, '', 2), fmt(l.append.cpu.referenceUsPerEntry, '', 2), ratioText(l.append.cpu.ratio), '', '']]
          : []),
        [`durable single append, one transaction each (entries/s)`, fmt(l.durable.ledgerPerSec, '', 0), fmt(l.durable.referencePerSec, '', 0), ratioText(l.durable.ratio), '', ''],
        [
          `verify ${l.verify.entries} entries (${l.verify.threads} threads${l.verify.intact ? '' : ', VERDICT WRONG'})`,
          fmt(l.verify.verifyMs, ' ms', 0),
          '',
          '',
          `< ${GOALS.ledgerVerifyMs} ms`,
          verdict(l.verify.intact && l.verify.verifyMs < GOALS.ledgerVerifyMs),
        ],
      ],
    ),
  );
}

function printAgents(a) {
  if (!a) return;
  log(`\n0b. Agent spawn → first output event (medians of ${a.rounds}, agent process from its bundle, as the app ships it; absolute goals)`);
  log(
    table(
      ['', 'ms', 'goal', ''],
      [
        ['warm start (a pooled process)', fmt(a.warmMs, '', 1), `≤ ${GOALS.agentWarmMs} ms`, verdict(a.warmMs <= GOALS.agentWarmMs)],
        ['cold start (a new process)', fmt(a.coldMs, '', 1), `≤ ${GOALS.agentColdMs} ms`, verdict(a.coldMs <= GOALS.agentColdMs)],
      ],
    ),
  );
}

function printExec(e) {
  if (!e) return;
  log(`\n0c. Shell runs: poll on a ${e.items.toLocaleString('en')}-item run (p50 of ${e.polls}), kill of a tree with a daemonised grandchild (${e.kill.rounds} rounds)`);
  log(
    table(
      ['', 'ms', 'reference ms', 'ratio', 'goal', ''],
      [
        ['poll, last 10 items (p50)', fmt(e.poll.incremental.p50Ms, '', 3), fmt(e.poll.incremental.referenceP50Ms, '', 3), ratioText(e.poll.incremental.referenceP50Ms / e.poll.incremental.p50Ms), `< ${GOALS.execPollMs} ms`, verdict(e.poll.incremental.p50Ms < GOALS.execPollMs)],
        ['poll, a full page of 1,000 items (p50)', fmt(e.poll.fullPage.p50Ms, '', 3), fmt(e.poll.fullPage.referenceP50Ms, '', 3), ratioText(e.poll.fullPage.referenceP50Ms / e.poll.fullPage.p50Ms), '', ''],
        ['kill → every process gone (p50 / max)', `${fmt(e.kill.p50Ms, '', 0)} / ${fmt(e.kill.maxMs, '', 0)}`, '', '', `≤ ${GOALS.execKillMs} ms`, verdict(e.kill.maxMs <= GOALS.execKillMs)],
        ['/bin/true through the worker vs a bare spawn (p50)', fmt(e.run.p50Ms, '', 1), fmt(e.run.referenceP50Ms, '', 1), ratioText(e.run.ratio), '', ''],
      ],
    ),
  );
}

function printNativeSandbox(s) {
  if (!s) return;
  log(`\n0d. Sandboxed spawn of /bin/true: wrap + run + dispose through the native sandbox (${s.bwrap}) vs a plain spawn, alternating (p50 of ${s.rounds})`);
  const labels = { bwrap: 'bwrap + seccomp, no network', staged: '+ staged writes (overlay) + cgroup limits', network: '+ network grant (proxy + socat bridge)' };
  log(
    table(
      ['', 'ms', 'plain spawn', 'overhead', 'goal', ''],
      Object.entries(s.variants).map(([name, v]) => [labels[name] ?? name, fmt(v.ms, '', 1), fmt(s.plainMs, '', 1), fmt(v.overheadMs, ' ms', 1), `≤ ${GOALS.sandboxOverheadMs} ms`, verdict(v.overheadMs <= GOALS.sandboxOverheadMs)]),
    ),
  );
}

function printReport(r) {
  log('\n════ Omniscient Shell benchmark ════  (each figure next to a reference measured in this run)');
  printLedger(r.ledger);
  printAgents(r.agents);
  if (r.agentCards) printAgentCards(r.agentCards, log);
  else if (r.errors.agentCards) log(`\n0c. Agent output cards: not measured (${firstLine(r.errors.agentCards)})`);
  if (r.acp) printAcp(r.acp, log);
  else if (r.errors.acp) log(`\n0e. ACP conversation flood: not measured (${firstLine(r.errors.acp)})`);
  if (r.review) printReview(r.review, log);
  else if (r.errors.review) log(`\n0f. Review: not measured (${firstLine(r.errors.review)})`);
  if (r.changes) printChanges(r.changes, log);
  else if (r.errors.changes) log(`\n0g. Changes: not measured (${firstLine(r.errors.changes)})`);
  printExec(r.exec);
  printNativeSandbox(r.nativeSandbox);
  printThroughput(r.throughput, r.errors.throughput, { log, goal: GOALS.throughputRatio, runCardGoals: { firstCharMs: GOALS.runCardFirstCharMs, ratio: GOALS.runCardRatio } });

  const c = r.coldStart;
  if (c) {
    log(`\n2. Host cold start to ready (median of ${c.runs}; reference: bare node http server)`);
    log(
      table(
        ['', 'host', 'reference', 'host / ref', 'goal', ''],
        [
          ['fresh home (DB created)', fmt(c.freshMs, ' ms', 0), fmt(c.referenceMs, ' ms', 0), ratioText(c.freshMs / c.referenceMs), `≤ ${GOALS.hostReadyRatio}×`, verdict(c.freshMs <= GOALS.hostReadyRatio * c.referenceMs)],
          ['warm home', fmt(c.warmMs, ' ms', 0), fmt(c.referenceMs, ' ms', 0), ratioText(c.warmMs / c.referenceMs), `≤ ${GOALS.hostReadyRatio}×`, verdict(c.warmMs <= GOALS.hostReadyRatio * c.referenceMs)],
          ['  of which: load CLI bundle (omni version)', fmt(c.bundleLoadMs, ' ms', 0), fmt(c.referenceMs, ' ms', 0), ratioText(c.bundleLoadMs / c.referenceMs), '', ''],
        ],
      ),
    );
  } else log(`\n2. Host cold start: not measured (${firstLine(r.errors.coldStart)})`);

  const p = r.firstPaint;
  if (p) {
    log(`\n3. UI first paint, from navigation (median of ${p.runs}, HTTP cache disabled; reference: bare xterm.js page)`);
    const ref = p.reference.fcpMs;
    const rows = [];
    // The goals are the production build's (what users get); the development build's rows are for comparison.
    const goal = (app, ms, ratio) => (app.name === 'production build' ? [`≤ ${ratio}×`, verdict(ms <= ratio * ref)] : ['', '']);
    for (const app of p.apps) {
      rows.push([`${app.name}, ${fmt(app.bundleBytes / 1024, ' KB', 0)} JS+CSS`, '', '', '', '', '']);
      rows.push(['  scripts downloaded', fmt(app.scriptsLoadedMs, ' ms', 0), fmt(p.reference.scriptsLoadedMs, ' ms', 0), ratioText(app.scriptsLoadedMs / p.reference.scriptsLoadedMs), '', '']);
      rows.push(['  first contentful paint', fmt(app.fcpMs, ' ms', 0), fmt(ref, ' ms', 0), ratioText(app.fcpMs / ref), ...goal(app, app.fcpMs, GOALS.firstPaintRatio)]);
      rows.push(['  sidebar painted', fmt(app.sidebarMs, ' ms', 0), fmt(ref, ' ms', 0), ratioText(app.sidebarMs / ref), '', '']);
      rows.push(['  session list painted (after RPC)', fmt(app.sessionListMs, ' ms', 0), fmt(ref, ' ms', 0), ratioText(app.sessionListMs / ref), ...goal(app, app.sessionListMs, GOALS.sessionListRatio)]);
    }
    log(table(['', 'app', 'reference', 'app / ref', 'goal', ''], rows));
  } else log(`\n3. UI first paint: not measured (${firstLine(r.errors.firstPaint)})`);
  if (r.hostProfile?.groups) {
    const h = r.hostProfile;
    const groups = Object.entries(h.groups).filter(([g]) => g !== '(idle)').slice(0, 10).map(([g, ms]) => `${g} ${fmt(ms, ' ms', 0)}`);
    log(`\nhost CPU profile (the throughput part's host, ${h.file}): ${groups.join(', ')}`);
    log(h.top.filter(([w]) => !w.startsWith('(idle')).slice(0, 12).map(([w, ms]) => `    ${fmt(ms, ' ms', 0).padStart(8)}  ${w}`).join('\n'));
  }
  if (r.errors.setup) log(`\nsetup failed: ${firstLine(r.errors.setup)}`);
}

/** The newest .cpuprofile the host wrote into `dir`, by module of the CLI bundle. */
function summariseHostProfile(dir) {
  try {
    const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).map((f) => join(dir, f)).sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
    if (files.length === 0) return { error: `no .cpuprofile in ${dir}` };
    const profile = JSON.parse(readFileSync(files[0], 'utf8'));
    const summary = summariseProfile(profile, { 'dist/cli/omni.cjs': readFileSync(join(root, 'dist/cli/omni.cjs'), 'utf8') });
    return { file: files[0], ...summary };
  } catch (error) {
    return { error: String(error) };
  }
}

