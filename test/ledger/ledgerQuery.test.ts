import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { contract, type LedgerEntry, type LedgerFilter } from '../../src-preload/contract';
import { DomainError } from '../../src-main/node/base/domainError';
import { canonicalJson } from '../../src-main/node/ledger/canonicalJson';
import { LedgerQuery } from '../../src-main/node/ledger/ledgerQuery';
import { storedEntries } from '../../src-main/node/ledger/storedEntries';
import { openDatabase, type Database } from '../../src-main/node/store/database';
import { tempDir } from '../helpers';
import { appendSyntheticEntries, busyLedgerEntry, type SyntheticEntry } from '../syntheticLedger';

/** A deterministic pseudo-random sequence, so a failing case can be reproduced from its number. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function openTemp(t: { after(fn: () => void): void }): Database {
  const dir = tempDir('ledger-query');
  const db = openDatabase(join(dir.path, 'sessions.db'));
  t.after(() => {
    db.close();
    dir.cleanup();
  });
  return db;
}

// ---- A reference implementation of the filter, written from the contract's words, not from the SQL ----

const asciiLower = (s: string): string => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

function wildcardMatches(pattern: string, value: string): boolean {
  const p = pattern.toLowerCase();
  const v = value.toLowerCase();
  // Classic glob matching with backtracking on the last star.
  let pi = 0;
  let vi = 0;
  let star = -1;
  let mark = 0;
  while (vi < v.length) {
    if (pi < p.length && p[pi] !== '*' && p[pi] === v[vi]) {
      pi++;
      vi++;
    } else if (pi < p.length && p[pi] === '*') {
      star = pi++;
      mark = vi;
    } else if (star >= 0) {
      pi = star + 1;
      vi = ++mark;
    } else {
      return false;
    }
  }
  while (pi < p.length && p[pi] === '*') pi++;
  return pi === p.length;
}

function referenceMatches(filter: LedgerFilter, entry: SyntheticEntry): boolean {
  if (filter.sessionId !== undefined && entry.sessionId !== filter.sessionId) return false;
  if (filter.actors && !filter.actors.includes(entry.actor)) return false;
  if (filter.types && !filter.types.some((pattern) => wildcardMatches(pattern, entry.type))) return false;
  if (filter.fromTs !== undefined && entry.ts < filter.fromTs) return false;
  if (filter.toTs !== undefined && entry.ts >= filter.toTs) return false;
  if (filter.text !== undefined) {
    const needle = asciiLower(filter.text);
    const haystacks = [entry.type, entry.actor, canonicalJson(entry.payload)].map(asciiLower);
    // The payload is JSON text: a quote in the needle appears there as \".
    const jsonNeedle = asciiLower(JSON.stringify(filter.text).slice(1, -1));
    if (!haystacks.some((h) => h.includes(needle)) && !haystacks[2].includes(jsonNeedle)) return false;
  }
  return true;
}

// ---- A small ledger with awkward data, queried in tiny windows so every window edge gets crossed ----

const SESSIONS = [null, 'ses_alpha', 'ses_beta', 'ses_gamma'];
const ACTORS = ['user', 'host', 'agent-a', 'agent-b', 'Agent-C'];
const TYPES = ['session.create', 'terminal.open', 'terminal.close', 'grant.issue', 'grant.revoke', 'file.write', 'Net.Request', 'exec_spawn'];
const WORDS = ['alpha', 'Beta', 'say "hi"', 'C:\\temp', '100%', 'under_score', 'ünïcode', 'tab\there', 'plain'];

function awkwardEntry(random: () => number, base: number, i: number): SyntheticEntry {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  // Mostly rising timestamps with the odd step back, as a wall clock adjusted by NTP gives.
  const ts = base + i * 1000 - (random() < 0.05 ? Math.floor(random() * 30_000) : 0);
  return { ts, type: pick(TYPES), actor: pick(ACTORS), sessionId: pick(SESSIONS), payload: { note: pick(WORDS), i, nested: { word: pick(WORDS) } } };
}

function randomFilter(random: () => number, base: number, count: number): LedgerFilter {
  const filter: LedgerFilter = {};
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  if (random() < 0.3) filter.sessionId = pick([...SESSIONS, 'ses_missing']);
  if (random() < 0.3) filter.actors = random() < 0.5 ? [pick(ACTORS)] : [pick(ACTORS), pick([...ACTORS, 'nobody'])];
  if (random() < 0.35) filter.types = [pick(['terminal.*', '*grant*', 'net.request', 'FILE.WRITE', 'exec_*', 'nothing.*', 'session.create', '*'])];
  if (random() < 0.25) {
    const from = base + Math.floor(random() * count * 1000);
    filter.fromTs = from;
    if (random() < 0.6) filter.toTs = from + 1 + Math.floor(random() * count * 300);
  }
  if (random() < 0.35) filter.text = pick(['alpha', 'BETA', '"hi"', 'C:\\temp', '100%', '%', 'under_', '_', 'ünïcode', 'agent', 'open', 'i":12', 'zzz']);
  return filter;
}

test('query, count and paging agree with a reference filter over 600 random filters (windows of 64 seqs)', async (t) => {
  const db = openTemp(t);
  const random = prng(424242);
  const base = 1_750_000_000_000;
  const COUNT = 3000;
  const all: SyntheticEntry[] = [];
  appendSyntheticEntries(db, COUNT, (i) => {
    const entry = awkwardEntry(random, base, i);
    all.push(entry);
    return entry;
  });
  const query = new LedgerQuery(db, { windowSize: 64, countBudgetMs: 1e9 });
  const seqOf = (entry: SyntheticEntry): number => all.indexOf(entry) + 1;
  const strip = (entries: LedgerEntry[]): number[] => entries.map((e) => e.seq);

  for (let n = 0; n < 600; n++) {
    const filter = randomFilter(random, base, COUNT);
    const untilSeq = random() < 0.3 ? Math.floor(random() * COUNT) : undefined;
    const until = untilSeq ?? COUNT;
    const expected = all
      .slice(0, until)
      .filter((entry) => referenceMatches(filter, entry))
      .map(seqOf)
      .reverse();
    const what = `case ${n}: ${JSON.stringify({ filter, untilSeq })}`;

    const count = await query.count({ filter, untilSeq });
    assert.deepEqual(count, { value: expected.length, exact: true, untilSeq: until }, what);

    const limit = 1 + Math.floor(random() * 40);
    const index = Math.floor(random() * (expected.length + 5));
    const byIndex = await query.page({ filter, untilSeq, from: { kind: 'index', index }, limit });
    assert.deepEqual(strip(byIndex.entries), expected.slice(index, index + limit), `${what} index ${index} limit ${limit}`);
    assert.equal(byIndex.untilSeq, until);

    const pivot = 1 + Math.floor(random() * until);
    const older = await query.page({ filter, untilSeq, from: { kind: 'olderThan', seq: pivot }, limit });
    assert.deepEqual(strip(older.entries), expected.filter((seq) => seq < pivot).slice(0, limit), `${what} olderThan ${pivot}`);
    const newer = await query.page({ filter, untilSeq, from: { kind: 'newerThan', seq: pivot }, limit });
    assert.deepEqual(strip(newer.entries), expected.filter((seq) => seq > pivot).slice(-limit), `${what} newerThan ${pivot}`);

    const afterSeq = Math.floor(random() * until);
    const since = await query.count({ filter, afterSeq, untilSeq });
    assert.equal(since.value, expected.filter((seq) => seq > afterSeq).length, `${what} afterSeq ${afterSeq}`);
  }
});

test('pages carry whole entries, and keyset pages continue an index page exactly, in both directions', async (t) => {
  const db = openTemp(t);
  appendSyntheticEntries(db, 500, busyLedgerEntry(1_700_000_000_000));
  const query = new LedgerQuery(db, { windowSize: 50 });
  const filter: LedgerFilter = { types: ['file.write', 'exec.spawn'] };
  const middle = await query.page({ filter, from: { kind: 'index', index: 40 }, limit: 20 });
  const below = await query.page({ filter, from: { kind: 'olderThan', seq: middle.entries.at(-1)!.seq }, limit: 20 });
  const above = await query.page({ filter, from: { kind: 'newerThan', seq: middle.entries[0].seq }, limit: 20 });
  assert.deepEqual(below.entries, (await query.page({ filter, from: { kind: 'index', index: 60 }, limit: 20 })).entries);
  assert.deepEqual(above.entries, (await query.page({ filter, from: { kind: 'index', index: 20 }, limit: 20 })).entries);
  const first = middle.entries[0];
  const i = first.seq - 1;
  assert.deepEqual(first, { ...busyLedgerEntry(1_700_000_000_000)(i), seq: first.seq });
});

test('a pinned snapshot keeps every index on the same entry while entries arrive; the default follows the head', async (t) => {
  const db = openTemp(t);
  const make = busyLedgerEntry(1_700_000_000_000);
  appendSyntheticEntries(db, 1000, make);
  const query = new LedgerQuery(db, { windowSize: 128 });
  const filter: LedgerFilter = { actors: ['user'] };
  const before = await query.page({ filter, from: { kind: 'index', index: 100 }, limit: 10 });
  const countBefore = await query.count({ filter });
  appendSyntheticEntries(db, 300, (i) => make(1000 + i));

  const pinned = await query.page({ filter, untilSeq: before.untilSeq, from: { kind: 'index', index: 100 }, limit: 10 });
  assert.deepEqual(pinned, before);
  assert.deepEqual(await query.count({ filter, untilSeq: before.untilSeq }), countBefore);

  const now = await query.count({ filter });
  assert.equal(now.untilSeq, 1300);
  const arrived = await query.count({ filter, afterSeq: before.untilSeq, untilSeq: now.untilSeq });
  assert.equal(arrived.value, now.value - countBefore.value);
  assert.equal(arrived.value, 100, 'every third new entry is the user’s');
  // A snapshot past the head is the head.
  assert.equal((await query.count({ filter, untilSeq: 99_999 })).untilSeq, 1300);
});

test('a count that runs out of time says it is an estimate, and asking again finishes it exactly', async (t) => {
  const db = openTemp(t);
  appendSyntheticEntries(db, 20_000, busyLedgerEntry(1_700_000_000_000));
  // A zero budget: every call counts exactly one new window, then extrapolates the rest.
  const query = new LedgerQuery(db, { windowSize: 1000, countBudgetMs: 0 });
  const filter: LedgerFilter = { text: 'project-1' };
  let expected = 0;
  for (let i = 0; i < 20_000; i++) if (String(i % 997).startsWith('1')) expected++;

  const first = await query.count({ filter });
  assert.equal(first.exact, false);
  assert.ok(Math.abs(first.value - expected) < expected * 0.5, `estimate ${first.value} is near ${expected}`);
  let calls = 1;
  let last = first;
  while (!last.exact) {
    last = await query.count({ filter });
    calls++;
    assert.ok(calls <= 20, 'each call makes progress');
  }
  assert.equal(calls, 20);
  assert.equal(last.value, expected);
  // Every window is cached now: jumping to the last match needs no recount and lands on the oldest match.
  const bottom = await query.page({ filter, from: { kind: 'index', index: expected - 1 }, limit: 5 });
  assert.equal(bottom.entries.length, 1);
  assert.equal(bottom.entries[0].payload.n, 1);
});

test('a search whose first page had to read the whole ledger is then counted exactly at once', async (t) => {
  const db = openTemp(t);
  appendSyntheticEntries(db, 20_000, busyLedgerEntry(1_700_000_000_000));
  const query = new LedgerQuery(db, { windowSize: 1000, countBudgetMs: 0 });
  const filter: LedgerFilter = { text: '"n":4321}' };
  const page = await query.page({ filter, from: { kind: 'index', index: 0 }, limit: 100 });
  assert.deepEqual(
    page.entries.map((e) => e.seq),
    [4322],
  );
  assert.deepEqual(await query.count({ filter }), { value: 1, exact: true, untilSeq: 20_000 });
});

test('facets list each distinct type, actor and session once, sorted; entry details carry the chain hashes', async (t) => {
  const db = openTemp(t);
  const query = new LedgerQuery(db);
  assert.deepEqual(query.facets(), { types: [], actors: [], sessions: [], noSession: false, truncated: false, head: 0 });
  appendSyntheticEntries(db, 2000, busyLedgerEntry(1_700_000_000_000));
  const facets = query.facets();
  assert.deepEqual(facets.types, ['exec.spawn', 'file.write', 'grant.issue', 'grant.revoke', 'net.request', 'session.create', 'terminal.close', 'terminal.open']);
  assert.deepEqual(facets.actors, [...Array.from({ length: 17 }, (_, n) => `agent-${n}`), 'user'].sort());
  assert.equal(facets.sessions.length, 40);
  assert.equal(facets.noSession, true);
  assert.equal(facets.head, 2000);
  assert.equal(facets.truncated, false);
  assert.equal(new LedgerQuery(db, { facetLimit: 5 }).facets().truncated, true);

  const stored = [...storedEntries(db)][776];
  const detail = query.entry(777);
  assert.equal(detail.seq, 777);
  assert.equal(detail.entryHash, stored.entryHash.toString('hex'));
  assert.equal(detail.prevHash, stored.prevHash.toString('hex'));
  assert.equal(detail.payloadCommit, stored.payloadCommit.toString('hex'));
  assert.deepEqual(detail.payload, busyLedgerEntry(1_700_000_000_000)(776).payload);
  assert.throws(
    () => query.entry(2001),
    (error: unknown) => error instanceof DomainError && error.kind === 'not_found' && /no entry 2001 .*1 to 2000/.test(error.message),
  );
});

test('type patterns still work, by LIKE, when a ledger has more distinct types than the facet limit', async (t) => {
  const db = openTemp(t);
  appendSyntheticEntries(db, 300, (i) => ({ ts: i, type: `kind${i % 30}.op${i % 7}`, actor: 'user', sessionId: null, payload: {} }));
  const limited = new LedgerQuery(db, { facetLimit: 10, windowSize: 64 });
  const full = new LedgerQuery(db, { windowSize: 64 });
  for (const types of [['kind1.*'], ['KIND2*'], ['*op3'], ['kind12.op5'], ['kind_.op1'], ['none']]) {
    const a = await limited.page({ filter: { types }, from: { kind: 'index', index: 0 }, limit: 300 });
    const b = await full.page({ filter: { types }, from: { kind: 'index', index: 0 }, limit: 300 });
    assert.deepEqual(a.entries, b.entries, JSON.stringify(types));
  }
});

test('bad filters are refused by the contract with a message that says what to change', () => {
  const request = contract['ledger.query'].req;
  const cases: [unknown, RegExp][] = [
    [{ filter: { fromTs: 10, toTs: 10 } }, /fromTs must be earlier than toTs/],
    [{ filter: { text: '   ' } }, /search text is empty/],
    [{ filter: { actor: 'user' } }, /actor/],
    [{ filter: { types: [] } }, /types/],
    [{ from: { kind: 'index', index: -1 } }, /index/],
    [{ limit: 5000 }, /limit|1000/],
  ];
  for (const [input, message] of cases) {
    const result = request.safeParse(input);
    assert.equal(result.success, false, JSON.stringify(input));
    const text = result.error!.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    assert.match(text, message, JSON.stringify(input));
  }
  assert.deepEqual(request.parse({}), { filter: {}, from: { kind: 'index', index: 0 }, limit: 100 });
});
