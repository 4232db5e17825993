// The changes area's part of `npm run bench` (BENCH_ONLY=changes): changesBench.ts (the real modules, bundled as
// the app ships them) in a child process. See changesBench.ts for what is measured against what; the figures and
// what they led to: docs/performance.md#changes-snapshots.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTsPart } from '../lib/runTsPart.mjs';
import { fmt, ratioText, table, verdict } from '../lib/stats.mjs';

const here = dirname(fileURLToPath(import.meta.url));

/** The goals: an incremental snapshot's p50, and its speed against raw git on the same tree. */
export const CHANGES_GOALS = { snapshotP50Ms: 150, snapshotRatio: 0.8 };

export function measureChanges({ log }) {
  log('  (snapshot of a 10,000-file workspace after 10 files changed, against raw `git add -A && git write-tree` into a scratch index, alternating)');
  return runTsPart(join(here, 'changesBench.ts'));
}

export function printChanges(c, log) {
  const s = c.snapshot;
  log(`\n0g. Changes: snapshot of a ${c.files.toLocaleString()}-file workspace after ${c.changed} files changed (p50 of ${c.rounds}; reference: raw git add -A && git write-tree, scratch index)`);
  log(
    table(
      ['', 'snapshot', 'raw git', 'ratio', 'goal', ''],
      [
        ['incremental snapshot, p50 (ms)', fmt(s.p50Ms, '', 1), fmt(s.rawP50Ms, '', 1), '', `≤ ${CHANGES_GOALS.snapshotP50Ms} ms`, verdict(s.p50Ms <= CHANGES_GOALS.snapshotP50Ms)],
        ['  speed against raw git (raw / ours)', '', '', ratioText(s.ratio), `≥ ${CHANGES_GOALS.snapshotRatio.toFixed(2)}×`, verdict(s.ratio >= CHANGES_GOALS.snapshotRatio)],
        ['  p90 (ms)', fmt(s.p90Ms, '', 1), fmt(s.rawP90Ms, '', 1), '', '', ''],
        ['first snapshot of the whole tree (ms)', fmt(c.first.ms, '', 0), fmt(c.first.rawMs, '', 0), ratioText(c.first.rawMs / c.first.ms), '', ''],
      ],
    ),
  );
}
