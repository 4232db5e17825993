import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import type { LedgerFilter } from '../../src-preload/contract';
import { LedgerQuery } from '../../src-main/node/ledger/ledgerQuery';
import { openDatabase } from '../../src-main/node/store/database';
import { tempDir } from '../helpers';
import { stressScale } from '../stressScale';
import { appendSyntheticEntries, busyLedgerEntry } from '../syntheticLedger';

// A million entries under `npm run test:stress`; a tenth of that in `npm test`, where the answers are checked the same
// way (seeding the million alone took ~40 s of CPU).
const N = stressScale(1_000_000, 100_000);
const MIDDLE = N / 2;
const BASE_TS = 1_700_000_000_000;

/**
 * N entries of the busy-ledger shape (see syntheticLedger.ts: entry i has seq i + 1), so every answer is
 * known from arithmetic. Timings are reported as diagnostics for the record; nothing here asserts a duration.
 */
test(`${N.toLocaleString('en')} entries: filters, search, counts and paging in both directions give the right entries`, async (t) => {
  const dir = tempDir('ledger-scale');
  const db = openDatabase(join(dir.path, 'sessions.db'));
  t.after(() => {
    db.close();
    dir.cleanup();
  });
  const make = busyLedgerEntry(BASE_TS);
  let started = performance.now();
  appendSyntheticEntries(db, N, make);
  t.diagnostic(`seeded ${N} entries with a real hash chain in ${Math.round(performance.now() - started)} ms`);

  const query = new LedgerQuery(db);
  const timed = async <T>(label: string, work: () => Promise<T> | T): Promise<T> => {
    started = performance.now();
    const result = await work();
    t.diagnostic(`${label}: ${(performance.now() - started).toFixed(1)} ms`);
    return result;
  };
  /** The seqs matching `keep`, newest first: the reference answer. */
  const matching = (keep: (i: number) => boolean): number[] => {
    const seqs: number[] = [];
    for (let i = N - 1; i >= 0; i--) if (keep(i)) seqs.push(i + 1);
    return seqs;
  };
  const seqs = (page: { entries: { seq: number }[] }): number[] => page.entries.map((e) => e.seq);
  /** Counts until exact, as the view does: each call resumes where the last one's time ran out. */
  const countFully = async (filter: LedgerFilter): Promise<{ value: number; calls: number; firstEstimate: number }> => {
    let result = await query.count({ filter });
    const firstEstimate = result.value;
    let calls = 1;
    while (!result.exact) {
      result = await query.count({ filter, untilSeq: result.untilSeq });
      calls++;
    }
    return { value: result.value, calls, firstEstimate };
  };

  // No filter: the newest page, the middle and the very end, by index.
  const top = await timed('newest page, no filter', () => query.page({ filter: {}, from: { kind: 'index', index: 0 }, limit: 100 }));
  assert.equal(top.untilSeq, N);
  assert.deepEqual(seqs(top), matching((i) => i >= N - 100));
  assert.deepEqual(await timed('count, no filter', () => query.count({ filter: {} })), { value: N, exact: true, untilSeq: N });
  const middle = await timed(`page at index ${MIDDLE}, no filter`, () => query.page({ filter: {}, from: { kind: 'index', index: MIDDLE }, limit: 100 }));
  assert.equal(middle.entries[0].seq, N - MIDDLE);
  assert.deepEqual(middle.entries[0].payload, make(N - MIDDLE - 1).payload);
  const end = await timed('page at the last index, no filter', () => query.page({ filter: {}, from: { kind: 'index', index: N - 1 }, limit: 100 }));
  assert.deepEqual(seqs(end), [1]);

  // Keyset paging from the middle, both ways, lands on the neighbouring index pages.
  const older = await timed('olderThan keyset page, no filter', () => query.page({ filter: {}, from: { kind: 'olderThan', seq: middle.entries.at(-1)!.seq }, limit: 100 }));
  assert.deepEqual(seqs(older), seqs(await query.page({ filter: {}, from: { kind: 'index', index: MIDDLE + 100 }, limit: 100 })));
  const newer = await timed('newerThan keyset page, no filter', () => query.page({ filter: {}, from: { kind: 'newerThan', seq: middle.entries[0].seq }, limit: 100 }));
  assert.deepEqual(seqs(newer), seqs(await query.page({ filter: {}, from: { kind: 'index', index: MIDDLE - 100 }, limit: 100 })));

  // Session, actor and type filters (indexed).
  const session = matching((i) => i % 40 === 7 && i % 50 !== 0);
  const sessionFilter: LedgerFilter = { sessionId: 'ses_7' };
  assert.equal((await timed('count, one session', () => countFully(sessionFilter))).value, session.length);
  const sessionMiddle = await timed('page at the middle of one session', () => query.page({ filter: sessionFilter, from: { kind: 'index', index: Math.floor(session.length / 2) }, limit: 50 }));
  assert.deepEqual(seqs(sessionMiddle), session.slice(Math.floor(session.length / 2), Math.floor(session.length / 2) + 50));

  const agent = matching((i) => i % 3 !== 0 && i % 17 === 5);
  const agentFilter: LedgerFilter = { actors: ['agent-5'] };
  assert.equal((await timed('count, one agent', () => countFully(agentFilter))).value, agent.length);
  assert.deepEqual(seqs(await query.page({ filter: agentFilter, from: { kind: 'index', index: agent.length - 10 }, limit: 50 })), agent.slice(-10));

  const terminal = matching((i) => i % 10 <= 1);
  const terminalFilter: LedgerFilter = { types: ['terminal.*'] };
  assert.equal((await timed('count, type family terminal.*', () => countFully(terminalFilter))).value, terminal.length);
  const terminalDeep = await timed('page at three quarters of terminal.*', () => query.page({ filter: terminalFilter, from: { kind: 'index', index: terminal.length * 0.75 }, limit: 100 }));
  assert.deepEqual(seqs(terminalDeep), terminal.slice(terminal.length * 0.75, terminal.length * 0.75 + 100));

  // Time: a hundred seconds in the middle.
  const quarter = N / 4;
  const timeFilter: LedgerFilter = { fromTs: BASE_TS + quarter * 1000, toTs: BASE_TS + (quarter + 100) * 1000 };
  const timeRange = await timed('first page, 100 s time range', () => query.page({ filter: timeFilter, from: { kind: 'index', index: 0 }, limit: 500 }));
  assert.deepEqual(seqs(timeRange), matching((i) => i >= quarter && i < quarter + 100));
  assert.equal((await timed('count, 100 s time range (time spans now cached)', () => countFully(timeFilter))).value, 100);

  // Search: a common term, a term with one match, and a search combined with a session.
  const common = matching((i) => i % 997 === 42);
  const commonFilter: LedgerFilter = { text: 'PROJECT-42"' };
  const commonPage = await timed(`first page, search with ${common.length} matches`, () => query.page({ filter: commonFilter, from: { kind: 'index', index: 0 }, limit: 100 }));
  assert.deepEqual(seqs(commonPage), common.slice(0, 100));
  const commonCount = await timed(`count until exact, search with ${common.length} matches`, () => countFully(commonFilter));
  t.diagnostic(`  (${commonCount.calls} count calls; first estimate ${commonCount.firstEstimate})`);
  assert.equal(commonCount.value, common.length);
  const commonEnd = await timed('page at the last match of that search (counts cached)', () => query.page({ filter: commonFilter, from: { kind: 'index', index: common.length - 3 }, limit: 100 }));
  assert.deepEqual(seqs(commonEnd), common.slice(-3));

  const rareN = Math.floor(N * 0.123456);
  const rareFilter: LedgerFilter = { text: `"n":${rareN}}` };
  const rare = await timed('first page, search with 1 match (reads every payload)', () => query.page({ filter: rareFilter, from: { kind: 'index', index: 0 }, limit: 100 }));
  assert.deepEqual(seqs(rare), [rareN + 1]);
  const rareCount = await timed('count of that search (the page read every window already)', () => query.count({ filter: rareFilter }));
  assert.deepEqual(rareCount, { value: 1, exact: true, untilSeq: N });

  const both = matching((i) => i % 40 === 7 && i % 50 !== 0 && `ls -la /work/project-${i % 997}`.includes('project-99'));
  const bothFilter: LedgerFilter = { sessionId: 'ses_7', text: 'project-99' };
  assert.deepEqual(seqs(await timed('first page, search within one session', () => query.page({ filter: bothFilter, from: { kind: 'index', index: 0 }, limit: 100 }))), both.slice(0, 100));
  assert.equal((await countFully(bothFilter)).value, both.length);

  const facets = await timed('facets', () => query.facets());
  assert.equal(facets.actors.length, 18);
  assert.equal(facets.sessions.length, 40);
});
