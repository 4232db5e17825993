// Prints the terminal throughput part of `npm run bench` (throughputRounds.mjs measures it).
import { firstLine, fmt, MB, median, ratioText, table, verdict } from '../lib/stats.mjs';

/**
 * t: the part's result (or undefined with `error`); goal: the ratio the terminal card must reach; runCardGoals: the
 * run card's first character after spawn (`firstCharMs`) and its throughput against the reference (`ratio`).
 */
export function printThroughput(t, error, { log, goal, runCardGoals }) {
  if (!t) {
    log(`\n1. Terminal throughput: not measured (${firstLine(error)})`);
    return;
  }
  const n = Math.max(t.runs.product.length, t.runs.productDom.length);
  log(
    `\n1. Terminal throughput end to end: ${fmt(t.payload.charsParsed / MB)} MB of text through xterm.js, ${t.geometry.cols}x${t.geometry.rows}, scrollback ${t.xtermOptions.scrollback} ` +
      `(${n} rounds: MB/s = median; ratio = median of each round's ratio to the reference run of that round)`,
  );
  const cpu = (runs, pick) => fmt(median(runs.map(pick)), '', 0);
  const row = (label, runs, mbps, ratio, isGoal) => [
    label,
    fmt(mbps),
    ratioText(ratio),
    isGoal ? `≥ ${goal.toFixed(2)}×` : '',
    isGoal ? verdict(ratio >= goal) : '',
    runs.map((x) => fmt(x.mbPerSec) + (x.capped ? '*' : '')).join(' / '),
    `${cpu(runs, (x) => x.cpuMs.browser.renderer)} / ${cpu(runs, (x) => x.cpuMs.browser['gpu-process'])} / ${cpu(runs, (x) => x.cpuMs.host ?? x.cpuMs.server)}`,
  ];
  log(
    table(
      ['', 'MB/s', 'ratio', 'goal', '', 'runs', 'CPU ms: renderer / gpu / host or server'],
      [
        t.runs.product.length ? row(`product as shipped (renderer: ${rendererLabel(t)})`, t.runs.product, t.productMbPerSec, t.ratio, true) : null,
        t.runs.productDom.length ? row('product, DOM renderer forced', t.runs.productDom, t.productDomMbPerSec, t.domRatio, !t.runs.product.length) : null,
        t.compare ? row(`compare build: ${t.compare.root}`, t.runs.compare, t.compare.mbPerSec, t.compare.ratio, false) : null,
        row('REFERENCE: bare xterm.js + raw WebSocket, same PTY child', t.runs.reference, t.referenceMbPerSec, 1, false),
        row('ceiling: the same page fed from memory, no PTY', t.runs.ceiling, t.ceilingMbPerSec, t.ceilingReferenceRatio, false),
      ].filter(Boolean),
    ),
  );
  const ofMedians = t.runs.product.length ? t.ratioOfMedians.product : t.ratioOfMedians.productDom;
  log(`  the terminal card's ratio of the medians instead (whole-run drift left in): ${ratioText(ofMedians)}`);
  if ([...t.runs.product, ...t.runs.productDom].some((x) => x.capped)) log(`  * capped: the run was stopped after ${process.env.BENCH_RUN_CAP_MS ?? 12000} ms and rated on what had been parsed`);
  log(
    `  the reference is the goal's: the same \`cat\` in a node-pty, its output sent on by a bare Node server (self-timed in its page: ${fmt(t.referenceSelfTimedMbPerSec)} MB/s); ` +
      `against the memory-fed ceiling the reference reaches ${ratioText(t.referenceCeilingRatio)} and the terminal card ${ratioText(t.ceilingRatio)} (the PTY's own cost is in both)`,
  );
  printRunCard(t, log, runCardGoals);
  printDiagnostics(t.diagnostics, log);
}

/** The PTY run → run card figure, as lines under the terminal table (whose rows other tooling reads as they are). */
function printRunCard(t, log, goals) {
  const runs = t.runs.runCard ?? [];
  if (runs.length === 0) return;
  const measured = runs.filter((x) => Number.isFinite(x.mbPerSec));
  const terminal = t.runs.product.length ? { label: 'terminal card as shipped', mbps: t.productMbPerSec } : { label: 'terminal card, DOM renderer', mbps: t.productDomMbPerSec };
  log(
    `  PTY run → run card (exec.shell spawn, pty: true, the same cat; spawn → last character parsed in the card's xterm; ${measured[0]?.renderer ?? 'n/a'} renderer): ` +
      `${fmt(t.runCardMbPerSec)} MB/s, ${ratioText(t.runCardRatio)} the reference, ${ratioText(t.runCardMbPerSec / terminal.mbps)} the ${terminal.label} (${fmt(terminal.mbps)} MB/s); ` +
      `runs ${runs.map((x) => (x.error ? 'failed' : fmt(x.mbPerSec) + (x.capped ? '*' : ''))).join(' / ')}`,
  );
  if (measured.length === 0) {
    log(`    not measured: ${firstLine(runs[0].error)}`);
    return;
  }
  if (goals) {
    log(`    goal: first character ≤ ${goals.firstCharMs} ms after spawn: ${fmt(t.runCardFirstByteMs, ' ms', 0)}, ${verdict(t.runCardFirstByteMs <= goals.firstCharMs)}`);
    log(`    goal: throughput ≥ ${goals.ratio.toFixed(2)}× the reference: ${ratioText(t.runCardRatio)}, ${verdict(t.runCardRatio >= goals.ratio)}`);
  }
  if (t.compare?.runCardRatio !== undefined) {
    const other = t.runs.compareRunCard ?? [];
    log(
      `    A/B, each round's run card over that round's reference: this build ${ratioText(t.compare.productRunCardRatio)}, compare build ${ratioText(t.compare.runCardRatio)} ` +
        `(${fmt(t.compare.runCardMbPerSec)} MB/s; runs ${other.map((x) => (x.error ? 'failed' : fmt(x.mbPerSec) + (x.capped ? '*' : ''))).join(' / ')})`,
    );
  }
  const p = measured.at(-1).persisted;
  log(
    `    first character after ${fmt(t.runCardFirstByteMs, ' ms', 0)} (card in the DOM after ${fmt(median(measured.map((x) => x.cardShownMs)), ' ms', 0)}; the host started the process ${fmt(median(measured.map((x) => x.persisted.startedAfterMs)), ' ms', 0)} after storing the run; cat ran ${fmt(median(measured.map((x) => x.persisted.ranMs)), ' ms', 0)}); from the first character (the terminal figure's span) ${fmt(t.runCardStreamMbPerSec)} MB/s; ` +
      `CPU ms renderer / gpu / host ${fmt(median(measured.map((x) => x.cpuMs.browser.renderer)), '', 0)} / ${fmt(median(measured.map((x) => x.cpuMs.browser['gpu-process'])), '', 0)} / ${fmt(median(measured.map((x) => x.cpuMs.host)), '', 0)}`,
  );
  log(
    `    the run's output is persisted on the way (exec_run_items in sessions.db, as a terminal's goes to event_log): last run ${p.status}${p.exitCode === null ? '' : ` ${p.exitCode}`}, ` +
      `${fmt(p.outputBytes / MB)} MB in ${p.items.toLocaleString('en')} items, database +${fmt(p.databaseGrowthBytes / MB)} MB; sandbox: ${p.sandbox.length ? p.sandbox.join(', ') : 'none'}`,
  );
}

function printDiagnostics(d, log) {
  if (!d) return;
  const f = d.product.frames;
  if (f) {
    log(
      `  diagnostic product run (DOM renderer, ${fmt(d.product.mbPerSec)} MB/s under the profiler): ${f.frames} item frames ` +
        `(median ${fmt(f.frameChars.median, '', 0)} bytes, max ${fmt(f.frameChars.max, '', 0)}) against ${d.reference.selfTimed?.messages ?? '?'} messages for the reference; ` +
        `${f.creditFrames} credit frames (median ${fmt(f.creditPerFrame, '', 0)} chars); credit frame → next item ${fmt(f.creditToNextFrameMs, ' ms', 2)} (median); ` +
        `${f.gapsOver5ms} pauses > 5 ms between item arrivals, totalling ${fmt(f.timeInGapsOver5msMs, ' ms', 0)} of ${fmt(d.product.ms, ' ms', 0)}`,
    );
  }
  for (const [name, run] of [['product (DOM)', d.product], ['reference', d.reference]]) {
    if (!run.profile) continue;
    const groups = Object.entries(run.profile.groups).slice(0, 8).map(([g, ms]) => `${g} ${((100 * ms) / run.profile.totalMs).toFixed(0)}%`);
    log(`  ${name} renderer main thread, self time: ${groups.join(', ')}`);
  }
}

function rendererLabel(t) {
  if (t.productRenderer !== 'webgl') return t.productRenderer;
  return /swiftshader|llvmpipe|software/i.test(t.productGl ?? '') ? 'WebGL on SwiftShader, i.e. software GL' : 'WebGL';
}
