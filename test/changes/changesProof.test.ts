// The proof of issue 22 on the real host (SQLite, ledger, consent, exec, ACP) with real git: ONE conversation turn
// in which the agent writes a file, and a shell run it asks for edits another with `sed -i` and deletes a third with
// `rm`; the turn's review lists all three; rejecting one hunk leaves exactly the other on disk; the verdicts survive
// a host restart; restoring the snapshot before the turn brings the deleted file back, and that restore is undone by
// restoring the snapshot it took first; the ledger holds one entry per verdict and restore, and verifies.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import type { ChangeTurn, LiveListFrame } from '../../src-preload/contract';
import { AcpPlainLauncher } from '../../src-main/node/acp/acpPlainLauncher';
import { tempDir } from '../helpers';
import { CONNECTION, openAcpTestHost, sinkOf, type AcpTestHost } from '../acp/acpTestHost';
import { NOTES, SHELL_COMMAND } from './fakeChangesTurn';

const FAKE = join(import.meta.dirname, 'fakeChangesAgent.ts');
const TSX = pathToFileURL(join(import.meta.dirname, '..', '..', 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;

const NUMBERS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty'];
const B_BEFORE = `${NUMBERS.join('\n')}\n`;
const C_TEXT = 'delete me\n';

const openHost = (home: string, workspace: string, sessionId?: string) => openAcpTestHost({ home, keychain: 'off', acpLauncher: new AcpPlainLauncher() }, workspace, sessionId);

test('one turn: an agent write, a sed -i and an rm in a shell run it asked for; review, reject a hunk, restart, restore, undo, ledger', { timeout: 120_000 }, async (t) => {
  const home = tempDir('changes-home');
  const ws = tempDir('changes-ws');
  t.after(() => {
    home.cleanup();
    ws.cleanup();
  });
  const workspace = ws.path;
  writeFileSync(join(workspace, 'b.txt'), B_BEFORE);
  writeFileSync(join(workspace, 'c.txt'), C_TEXT);
  writeFileSync(join(home.path, 'acp-agents.json'), JSON.stringify({ schema_version: 1, agents: [{ id: 'fake-changes', command: process.execPath, args: ['--import', TSX, FAKE] }] }));

  let host: AcpTestHost = await openHost(home.path, workspace);
  const sessionId = host.sessionId;
  const h = () => host.services.handlers;
  let turnId: string;
  let beforeSnapshot: string;
  try {
    // The live list hears the turn begin and end.
    const heard: ChangeTurn[] = [];
    const watch = h()['changes.turns']({ sessionId }, sinkOf<LiveListFrame<ChangeTurn>>((frame) => frame.kind === 'upsert' && heard.push(frame.item)), CONNECTION);
    const conversation = await h()['acp.start']({ sessionId, agent: 'fake-changes' }, CONNECTION);
    await h()['acp.prompt']({ conversationId: conversation.id, text: 'tidy the notes' }, CONNECTION);
    watch?.dispose();

    const turns = await collectTurns(host, sessionId);
    const conversationTurn = turns.find((turn) => turn.source.kind === 'conversation');
    assert.ok(conversationTurn, 'the prompt is a turn');
    assert.equal(conversationTurn.source.id, conversation.id);
    assert.equal(typeof conversationTurn.source.seq, 'number');
    assert.equal(conversationTurn.title, 'tidy the notes');
    assert.ok(conversationTurn.endedAt !== null && conversationTurn.after !== null, 'the turn ended when the prompt answered');
    assert.equal(conversationTurn.filesChanged, 3);
    assert.equal(conversationTurn.verdict, 'pending');
    assert.ok(heard.some((turn) => turn.id === conversationTurn.id && turn.endedAt === null) && heard.some((turn) => turn.id === conversationTurn.id && turn.endedAt !== null));
    // The shell run the agent asked for is a turn of its own, inside the conversation's.
    const shellTurn = turns.find((turn) => turn.source.kind === 'shell_run');
    assert.ok(shellTurn, 'the agent-requested shell run is a turn');
    assert.equal(shellTurn.filesChanged, 2);
    assert.equal(shellTurn.title, SHELL_COMMAND);
    assert.equal(shellTurn.agent, 'acp:fake-changes', "the run's actor");
    turnId = conversationTurn.id;
    beforeSnapshot = conversationTurn.before;

    const { files } = await h()['changes.files']({ turnId }, CONNECTION);
    assert.deepEqual(
      files.map((f) => [f.path, f.status]).sort(),
      [['b.txt', 'modified'], ['c.txt', 'deleted'], ['notes.md', 'added']],
    );

    const diff = await h()['changes.diff']({ turnId, path: 'b.txt' }, CONNECTION);
    assert.equal(diff.hunks.length, 2, 'two distant edits are two hunks');
    const rejected = await h()['changes.verdict']({ turnId, path: 'b.txt', hunk: 0, verdict: 'rejected' }, CONNECTION);
    assert.deepEqual(rejected.hunks.map((hunk) => hunk.verdict), ['rejected', 'pending']);
    assert.equal(rejected.file.verdict, 'mixed');
    assert.equal(readFileSync(join(workspace, 'b.txt'), 'utf8'), B_BEFORE.replace('nineteen', 'NINETEEN'), 'exactly the other hunk is left on disk');
    await h()['changes.verdict']({ turnId, path: 'notes.md', verdict: 'accepted' }, CONNECTION);
  } finally {
    await host.dispose();
  }

  // A new host on the same home: the verdicts are where they were.
  host = await openHost(home.path, workspace, sessionId);
  try {
    const diff = await h()['changes.diff']({ turnId, path: 'b.txt' }, CONNECTION);
    assert.deepEqual(diff.hunks.map((hunk) => hunk.verdict), ['rejected', 'pending']);
    const { files } = await h()['changes.files']({ turnId }, CONNECTION);
    assert.deepEqual(Object.fromEntries(files.map((f) => [f.path, f.verdict])), { 'b.txt': 'mixed', 'c.txt': 'pending', 'notes.md': 'accepted' });
    await assert.rejects(async () => h()['changes.verdict']({ turnId, path: 'b.txt', hunk: 0, verdict: 'accepted' }, CONNECTION), /was rejected/);

    // Restore to the snapshot before the turn: the plan first, touching nothing.
    const timeline = await h()['changes.timeline']({ sessionId }, CONNECTION);
    assert.equal(timeline[0].moment, 'start');
    assert.ok(timeline.some((snapshot) => snapshot.id === beforeSnapshot));
    const plan = await h()['changes.restorePlan']({ snapshotId: beforeSnapshot }, CONNECTION);
    assert.deepEqual(
      plan.files.map((f) => [f.path, f.action]).sort(),
      [['b.txt', 'restore'], ['c.txt', 'recreate'], ['notes.md', 'delete']],
    );
    assert.ok(!existsSync(join(workspace, 'c.txt')), 'the plan touched nothing');

    const restore = await h()['changes.restore']({ snapshotId: beforeSnapshot }, CONNECTION);
    assert.equal(restore.source.kind, 'restore');
    assert.equal(restore.agent, 'you');
    assert.equal(restore.filesChanged, 3);
    assert.equal(readFileSync(join(workspace, 'c.txt'), 'utf8'), C_TEXT, 'the deleted file is back');
    assert.equal(readFileSync(join(workspace, 'b.txt'), 'utf8'), B_BEFORE);
    assert.ok(!existsSync(join(workspace, 'notes.md')));

    // Undo: restore the snapshot the restore took before it.
    await h()['changes.restore']({ snapshotId: restore.before }, CONNECTION);
    assert.ok(!existsSync(join(workspace, 'c.txt')));
    assert.equal(readFileSync(join(workspace, 'notes.md'), 'utf8'), NOTES);
    assert.equal(readFileSync(join(workspace, 'b.txt'), 'utf8'), B_BEFORE.replace('nineteen', 'NINETEEN'));

    const entries = (await h()['ledger.list']({ sessionId, limit: 1000 }, CONNECTION)).filter((e) => e.type.startsWith('changes.'));
    assert.deepEqual(entries.map((e) => e.type).sort(), ['changes.accept', 'changes.reject', 'changes.restore', 'changes.restore']);
    const reject = entries.find((e) => e.type === 'changes.reject')!;
    assert.deepEqual({ ...reject.payload }, { turnId, before: beforeSnapshot, after: reject.payload.after, path: 'b.txt', hunk: 0, hunks: 1 });
    for (const entry of entries) assert.ok(!JSON.stringify(entry.payload).includes('nineteen'), 'no file contents in the ledger');
    const verdict = await h()['ledger.verify']({}, CONNECTION);
    assert.equal(verdict.intact, true);
  } finally {
    await host.dispose();
  }
});

test('a cancel while the snapshot before a prompt is taken stops the prompt: the agent never sees it, the turn changed nothing', { timeout: 60_000 }, async (t) => {
  const home = tempDir('changes-home');
  const ws = tempDir('changes-ws');
  writeFileSync(join(ws.path, 'b.txt'), B_BEFORE);
  writeFileSync(join(ws.path, 'c.txt'), C_TEXT);
  writeFileSync(join(home.path, 'acp-agents.json'), JSON.stringify({ schema_version: 1, agents: [{ id: 'fake-changes', command: process.execPath, args: ['--import', TSX, FAKE] }] }));
  const host = await openHost(home.path, ws.path);
  t.after(async () => {
    await host.dispose();
    home.cleanup();
    ws.cleanup();
  });
  const h = host.services.handlers;
  const conversation = await h['acp.start']({ sessionId: host.sessionId, agent: 'fake-changes' }, CONNECTION);
  // Both calls are made before the snapshot's git processes can answer.
  const prompted = h['acp.prompt']({ conversationId: conversation.id, text: 'tidy the notes' }, CONNECTION);
  const cancelled = h['acp.cancel']({ conversationId: conversation.id }, CONNECTION);
  assert.deepEqual(await prompted, { stopReason: 'cancelled' });
  await cancelled;
  assert.ok(!existsSync(join(ws.path, 'notes.md')) && existsSync(join(ws.path, 'c.txt')), 'the agent did nothing');
  const [turn] = await collectTurns(host, host.sessionId);
  assert.equal(turn.source.kind, 'conversation');
  assert.ok(turn.endedAt !== null);
  assert.equal(turn.filesChanged, 0);
  // The conversation takes the next prompt.
  await h['acp.prompt']({ conversationId: conversation.id, text: 'now do it' }, CONNECTION);
  assert.equal(readFileSync(join(ws.path, 'notes.md'), 'utf8'), NOTES);
});

/** The session's turns as the live list's snapshot gives them. */
async function collectTurns(host: AcpTestHost, sessionId: string): Promise<ChangeTurn[]> {
  return new Promise((resolve) => {
    const sub = host.services.handlers['changes.turns'](
      { sessionId },
      sinkOf<LiveListFrame<ChangeTurn>>((frame) => {
        if (frame.kind === 'snapshot') {
          resolve(frame.items);
          queueMicrotask(() => sub?.dispose());
        }
      }),
      CONNECTION,
    );
  });
}
