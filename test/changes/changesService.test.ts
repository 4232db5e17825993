// The changes service on real parts (SQLite on disk, the ledger, sessions, the shadow store over real git), without
// the rest of the host: what a hostile agent or a broken machine would try. A path climbing out or absolute is
// refused with a typed error before anything is read; a caller scoped to one session cannot reach another's turns;
// a title holding a secret is scrubbed before SQLite; a failed snapshot does not stop the turn and its review says
// why; sessions on one workspace share one store, and their snapshots never interleave.
import assert from 'node:assert/strict';
import { readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { DomainError } from '../../src-main/node/base/domainError';
import { ChangesService } from '../../src-main/node/changes/changesService';
import { ShadowStore } from '../../src-main/node/changes/shadowStore';
import type { OpenSnapshotEngine } from '../../src-main/node/changes/snapshotEngine';
import { Ledger } from '../../src-main/node/ledger/ledger';
import { SessionService } from '../../src-main/node/sessions/sessionService';
import { openDatabase, type Database } from '../../src-main/node/store/database';
import { SecretRegistry } from '../../src-main/node/vault/secretRegistry';
import { SecretScrubber } from '../../src-main/node/vault/secretScrubber';
import { tempDir } from '../helpers';

interface Fixture {
  db: Database;
  sessions: SessionService;
  changes: ChangesService;
  logged: string[];
  opened: string[];
  home: string;
}

function fixture(t: TestContext, openEngine?: OpenSnapshotEngine): Fixture {
  const home = tempDir('changes-svc-home');
  const db = openDatabase(join(home.path, 'omni.db'));
  const ledger = new Ledger(db);
  const sessions = new SessionService(db, ledger);
  const logged: string[] = [];
  const opened: string[] = [];
  const changes = new ChangesService({
    db,
    ledger,
    sessions,
    scrubber: new SecretScrubber(new SecretRegistry()),
    log: { error: (...parts: unknown[]) => void logged.push(parts.map((p) => (p instanceof Error ? p.message : String(p))).join(' ')) },
    openEngine: (workspace) => {
      opened.push(workspace);
      return openEngine ? openEngine(workspace) : ShadowStore.open(home.path, workspace);
    },
  });
  t.after(async () => {
    await changes.dispose();
    await ledger.close();
    db.close();
    home.cleanup();
  });
  return { db, sessions, changes, logged, opened, home: home.path };
}

function workspace(t: TestContext, files: Record<string, string>): string {
  const dir = tempDir('changes-svc-ws');
  t.after(() => dir.cleanup());
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir.path, name), text);
  return dir.path;
}

/** A turn in which `change` edits the workspace. */
async function turn(f: Fixture, sessionId: string, change: () => void, title = 'edit'): Promise<string> {
  const handle = await f.changes.beginTurn(sessionId, { kind: 'agent_run', id: 'run_test' }, 'tester', title);
  change();
  await handle.end();
  assert.ok(handle.turnId);
  return handle.turnId;
}

const kindOf = (error: unknown) => (error instanceof DomainError ? error.kind : `not a DomainError: ${String(error)}`);

test('a verdict on a path with "..", an absolute path or a NUL is refused with invalid_input, and nothing on disk changes', async (t) => {
  const f = fixture(t);
  const ws = workspace(t, { 'a.txt': 'one\n' });
  const session = f.sessions.create(ws, 'attack', 'user');
  const turnId = await turn(f, session.id, () => writeFileSync(join(ws, 'a.txt'), 'two\n'));
  for (const path of ['../a.txt', 'x/../../etc/passwd', '/etc/passwd', join(ws, 'a.txt'), 'a.txt\0', 'C:\\Windows\\win.ini', './a.txt']) {
    await assert.rejects(f.changes.verdict({ turnId, path, verdict: 'rejected' }, 'user'), (error) => kindOf(error) === 'invalid_input', path);
    await assert.rejects(f.changes.diff(turnId, path), (error) => kindOf(error) === 'invalid_input', path);
  }
  // A path the turn did not change is not_found, not a write anywhere.
  await assert.rejects(f.changes.verdict({ turnId, path: 'other.txt', verdict: 'rejected' }, 'user'), (error) => kindOf(error) === 'not_found');
  assert.equal(readFileSync(join(ws, 'a.txt'), 'utf8'), 'two\n');
  assert.equal(f.db.prepare<[], { n: number }>('SELECT count(*) AS n FROM change_verdicts').get()!.n, 0);
});

test("a caller scoped to one session gets not_found for another session's turn and snapshot; a reject acts in the turn's own workspace", async (t) => {
  const f = fixture(t);
  const wsA = workspace(t, { 'a.txt': 'a\n' });
  const wsB = workspace(t, { 'a.txt': 'b\n' });
  const a = f.sessions.create(wsA, 'A', 'user');
  const b = f.sessions.create(wsB, 'B', 'user');
  const turnB = await turn(f, b.id, () => writeFileSync(join(wsB, 'a.txt'), 'b changed\n'));
  const scopeA = { sessionId: a.id };
  await assert.rejects(f.changes.files(turnB, scopeA), (error) => kindOf(error) === 'not_found');
  await assert.rejects(f.changes.verdict({ turnId: turnB, path: 'a.txt', verdict: 'rejected' }, 'agent', scopeA), (error) => kindOf(error) === 'not_found');
  const snapshotB = f.changes.turn(turnB).before;
  await assert.rejects(f.changes.restore(snapshotB, 'agent', scopeA), (error) => kindOf(error) === 'not_found');
  await assert.rejects(f.changes.restorePlan(snapshotB, scopeA), (error) => kindOf(error) === 'not_found');
  assert.equal(readFileSync(join(wsB, 'a.txt'), 'utf8'), 'b changed\n', 'nothing was rejected');

  await f.changes.verdict({ turnId: turnB, path: 'a.txt', verdict: 'rejected' }, 'user');
  assert.equal(readFileSync(join(wsB, 'a.txt'), 'utf8'), 'b\n');
  assert.equal(readFileSync(join(wsA, 'a.txt'), 'utf8'), 'a\n', "the other session's workspace is untouched");
  assert.equal(f.changes.turn(turnB).verdict, 'rejected');
});

test('a title holding a secret (a prompt with a pasted key) is scrubbed before SQLite, and cut to one line', async (t) => {
  const f = fixture(t);
  const ws = workspace(t, { 'a.txt': 'a\n' });
  const session = f.sessions.create(ws, 's', 'user');
  const key = `sk-ant-api03-${'Q'.repeat(90)}AA`;
  const turnId = await turn(f, session.id, () => undefined, `use ${key} to deploy\nsecond line ${key}`);
  const row = f.db.prepare<[string], { title: string }>('SELECT title FROM change_turns WHERE id = ?').get(turnId)!;
  assert.ok(!row.title.includes(key.slice(0, 30)), `the key is not stored: ${row.title}`);
  assert.match(row.title, /^use .+ to deploy$/);
  assert.ok(!JSON.stringify(f.db.prepare('SELECT * FROM change_turns').all()).includes('QQQQQQQQQQ'));
});

test("a snapshot that fails (git missing) does not stop the turn: it is logged, the turn is recorded, and its review says why", async (t) => {
  const f = fixture(t, async () => {
    throw new Error('spawn git ENOENT');
  });
  const ws = workspace(t, { 'a.txt': 'a\n' });
  const session = f.sessions.create(ws, 's', 'user');
  let agentRan = false;
  const handle = await f.changes.beginTurn(session.id, { kind: 'conversation', id: 'acp_x', seq: 3 }, 'Claude Code', 'go');
  agentRan = true;
  await handle.end();
  assert.ok(agentRan && handle.turnId);
  assert.ok(f.logged.some((line) => line.includes('snapshot') && line.includes('ENOENT')), f.logged.join('\n'));
  const recorded = f.changes.turn(handle.turnId);
  assert.equal(recorded.endedAt !== null, true);
  assert.equal(recorded.filesChanged, 0);
  await assert.rejects(f.changes.files(handle.turnId), (error: Error) => kindOf(error) === 'unavailable' && /could not be snapshotted before it \(spawn git ENOENT\)/.test(error.message) && /git is installed/.test(error.message));
  const timeline = f.changes.timeline(session.id);
  await assert.rejects(f.changes.restore(timeline[0].id, 'user'), (error) => kindOf(error) === 'unavailable');
});

test('sessions on one workspace share one store; turns begun at once get snapshots one at a time, each with its own before and after', async (t) => {
  const f = fixture(t);
  const ws = workspace(t, { 'a.txt': 'a\n' });
  const one = f.sessions.create(ws, 'one', 'user');
  const two = f.sessions.create(ws, 'two', 'user');
  const [h1, h2] = await Promise.all([
    f.changes.beginTurn(one.id, { kind: 'agent_run', id: 'run_1' }, 'x', 'one'),
    f.changes.beginTurn(two.id, { kind: 'agent_run', id: 'run_2' }, 'y', 'two'),
  ]);
  writeFileSync(join(ws, 'b.txt'), 'b\n');
  await Promise.all([h1.end(), h2.end()]);
  assert.equal(new Set(f.opened).size, 1);
  assert.equal(f.opened.length, 1, 'the store is opened once for both sessions');
  for (const handle of [h1, h2]) {
    const { files } = await f.changes.files(handle.turnId!);
    assert.deepEqual(files.map((file) => [file.path, file.status]), [['b.txt', 'added']]);
  }
  // Each session's first snapshot is its start.
  assert.equal(f.changes.timeline(one.id)[0].moment, 'start');
  assert.equal(f.changes.timeline(two.id)[0].moment, 'start');
});

test('the turn verdict follows its files: pending until every file has one, then mixed when they differ; a running turn takes no verdict; a second end does nothing', async (t) => {
  const f = fixture(t);
  const ws = workspace(t, { 'a.txt': 'a\n', 'b.txt': 'b\n' });
  const session = f.sessions.create(ws, 's', 'user');
  const handle = await f.changes.beginTurn(session.id, { kind: 'goal_task', id: 't1' }, 'coder', 'Task t1 (executor)');
  writeFileSync(join(ws, 'a.txt'), 'a2\n');
  writeFileSync(join(ws, 'b.txt'), 'b2\n');
  assert.equal((await f.changes.files(handle.turnId!)).files.length, 2, 'a running turn shows its changes so far');
  await assert.rejects(f.changes.verdict({ turnId: handle.turnId!, path: 'a.txt', verdict: 'accepted' }, 'user'), (error) => kindOf(error) === 'state');
  await handle.end();
  await handle.end();
  const turnId = handle.turnId!;
  assert.equal(f.changes.turn(turnId).verdict, 'pending');
  await f.changes.verdict({ turnId, path: 'a.txt', verdict: 'accepted' }, 'user');
  assert.equal(f.changes.turn(turnId).verdict, 'pending');
  await f.changes.verdict({ turnId, path: 'b.txt', hunk: 0, verdict: 'rejected' }, 'user');
  assert.equal(f.changes.turn(turnId).verdict, 'mixed');
  assert.equal(readFileSync(join(ws, 'b.txt'), 'utf8'), 'b\n');
  await assert.rejects(f.changes.verdict({ turnId, path: 'b.txt', hunk: 5, verdict: 'accepted' }, 'user'), (error) => kindOf(error) === 'invalid_input');
  assert.equal(f.db.prepare<[], { n: number }>("SELECT count(*) AS n FROM change_snapshots WHERE moment = 'after'").get()!.n, 1);
});

test('a turn a stopped host left open is ended by the next one, with what the agent wrote up to the stop', async (t) => {
  const f = fixture(t);
  const ws = workspace(t, { 'a.txt': 'a\n' });
  const session = f.sessions.create(ws, 's', 'user');
  const handle = await f.changes.beginTurn(session.id, { kind: 'agent_run', id: 'run_crash' }, 'x', 'crashes');
  writeFileSync(join(ws, 'a.txt'), 'half done\n');
  // The host stops here: no end(). The next host's service on the same database:
  const next = new ChangesService({ db: f.db, ledger: new Ledger(f.db), sessions: f.sessions, scrubber: new SecretScrubber(), log: { error: () => undefined }, openEngine: (w) => ShadowStore.open(f.home, w) });
  t.after(() => next.dispose());
  await next.recoverOpenTurns();
  const recovered = next.turn(handle.turnId!);
  assert.ok(recovered.endedAt !== null && recovered.after !== null);
  assert.equal(recovered.filesChanged, 1);
  assert.deepEqual((await next.files(handle.turnId!)).files.map((file) => [file.path, file.status]), [['a.txt', 'modified']]);
});

test('restoring a snapshot that left a file out as too large keeps that file: the plan does not delete it, nor does the restore', async (t) => {
  const f = fixture(t);
  const ws = workspace(t, { 'a.txt': 'one\n' });
  const session = f.sessions.create(ws, 'big file', 'user');
  // A build writes an 11 MB file (over the 10 MiB cap, so snapshots leave it out); a later turn shrinks it.
  await turn(f, session.id, () => {
    writeFileSync(join(ws, 'a.txt'), 'two\n');
    writeFileSync(join(ws, 'big.bin'), '');
    truncateSync(join(ws, 'big.bin'), 11 * 1024 * 1024);
  });
  const afterFirst = f.changes.timeline(session.id).at(-1)!;
  assert.deepEqual(afterFirst.skipped.map((file) => [file.path, file.reason]), [['big.bin', 'too_large']]);
  await turn(f, session.id, () => {
    writeFileSync(join(ws, 'a.txt'), 'three\n');
    writeFileSync(join(ws, 'big.bin'), 'small now\n');
  });
  const plan = await f.changes.restorePlan(afterFirst.id);
  assert.deepEqual(plan.files, [{ path: 'a.txt', action: 'restore' }]);
  await f.changes.restore(afterFirst.id, 'user');
  assert.equal(readFileSync(join(ws, 'a.txt'), 'utf8'), 'two\n');
  assert.equal(readFileSync(join(ws, 'big.bin'), 'utf8'), 'small now\n');
});

test('prepare readies a session\'s store ahead of its first turn without recording anything; that turn\'s snapshot then runs no git', async (t) => {
  const f = fixture(t);
  const ws = workspace(t, { 'a.txt': 'one\n', 'b.txt': 'two\n' });
  const session = f.sessions.create(ws, 'prepared', 'user');
  await f.changes.prepare(session.id);
  assert.deepEqual(f.changes.timeline(session.id), [], 'a prepare is not a snapshot of the session');
  assert.deepEqual(f.opened, [ws]);

  // With the store's index made garbage, any git process of the snapshot would fail and the turn would have no review.
  const index = join((await ShadowStore.open(f.home, ws)).storeDir, 'index');
  const kept = readFileSync(index);
  writeFileSync(index, 'not an index');
  const handle = await f.changes.beginTurn(session.id, { kind: 'agent_run', id: 'run_prepared' }, 'tester', 'edit');
  writeFileSync(index, kept);
  writeFileSync(join(ws, 'a.txt'), 'ONE\n');
  await handle.end();
  assert.deepEqual(f.logged, []);
  assert.deepEqual(f.changes.timeline(session.id).map((s) => s.moment), ['start', 'after']);
  const { files } = await f.changes.files(handle.turnId!);
  assert.deepEqual(files.map((file) => `${file.status} ${file.path}`), ['modified a.txt']);

  // An unknown session is nothing to prepare, and no error.
  await f.changes.prepare('ses_unknown');
});
