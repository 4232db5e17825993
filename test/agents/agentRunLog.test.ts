// Agent runs in the event log (issue 23, item 11): a run comes back whole from the log (cards, images, errors,
// denied calls, its end), secrets scrubbed on the way to disk, and a host killed mid-run leaves a run the next host
// closes as interrupted with everything committed before the kill.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import type { AgentRunEvent, AgentRunInfo } from '../../src-preload/contract';
import { AgentRun } from '../../src-main/node/agents/runtime/agentRun';
import { AgentRunLog } from '../../src-main/node/agents/runtime/agentRunLog';
import { EventLog } from '../../src-main/node/eventlog/eventLog';
import { replaySession } from '../../src-main/node/eventlog/replaySession';
import { EventKind } from '../../src-main/node/eventlog/eventKinds';
import { openDatabase } from '../../src-main/node/store/database';
import { SecretRegistry } from '../../src-main/node/vault/secretRegistry';
import { SecretScrubber } from '../../src-main/node/vault/secretScrubber';
import { tempDir } from '../helpers';

const info = (id: string, sessionId: string): AgentRunInfo => ({
  id,
  sessionId,
  agent: 'tester',
  prompt: 'go',
  state: 'Registered',
  outcome: 'running',
  startedAt: 1,
  endedAt: null,
  error: null,
  deniedCalls: 0,
  grantsGiven: 0,
});

const out = (cardId: string, data: string, cardKind: 'log' | 'image' | 'markdown' = 'log'): AgentRunEvent => ({
  kind: 'output',
  cardId,
  cardKind,
  contentType: cardKind === 'image' ? 'image/png' : cardKind === 'markdown' ? 'text/markdown' : 'text/x-log',
  language: null,
  data,
});

/** The events as a card applies them: consecutive chunks of one card joined (the log stores them as rows). */
function joined(events: readonly AgentRunEvent[]): AgentRunEvent[] {
  const result: AgentRunEvent[] = [];
  for (const event of events) {
    const last = result.at(-1);
    if (event.kind === 'output' && last?.kind === 'output' && last.cardId === event.cardId && event.cardKind !== 'image') result[result.length - 1] = { ...last, data: last.data + event.data };
    else result.push(event);
  }
  return result;
}

test('a finished run comes back from the log as it was: cards in order, image frames, denied calls, errors and its end', (t) => {
  const dir = tempDir('agent-run-log');
  const file = join(dir.path, 'sessions.db');
  const secrets = new SecretRegistry();
  const db = openDatabase(file);
  const log = new EventLog(db, { secrets });
  const runs = new AgentRunLog(db, log, new SecretScrubber(secrets));
  const sessionId = 'ses_runlogtest01';
  log.append({ sessionId, kind: EventKind.sessionCreated, payload: { id: sessionId, name: 's', workspace: '/w', status: 'open', createdAt: 1, updatedAt: 1 } });
  const run = new AgentRun(info('run_runlogtest01', sessionId));
  runs.record(run);
  run.lifecycle.move('Initialized', 'host');
  run.lifecycle.move('Active', 'host');
  run.push(out('main', '# Title\n', 'markdown'));
  run.push(out('log', 'line 1\n'));
  run.push(out('main', 'more text\n', 'markdown'));
  run.push(out('log', 'line 2\n'));
  run.push(out('preview', 'AAAA', 'image'));
  run.push(out('preview', 'BBBB', 'image'));
  run.push({ kind: 'denied', call: { capability: 'files.read', target: 'notes/a.txt', reason: 'the user denied it', code: 'no_grant', at: 7 } });
  run.push({ kind: 'artifact', id: 'a1', artifactKind: 'file', path: 'out.txt', previewHint: null });
  run.push({ kind: 'error', code: 'oops', message: 'key ghp_abcdefghijklmnopqrstuvwxyz0123456789 leaked', hint: null });
  run.lifecycle.move('Terminated', 'completed');
  run.end({ outcome: 'completed', error: null }, 9);
  const live = joined(run.replay());
  log.dispose();
  db.close();

  // A new host on the same file.
  const db2 = openDatabase(file);
  const log2 = new EventLog(db2);
  const runs2 = new AgentRunLog(db2, log2, new SecretScrubber());
  // Registered last, so it runs after the log's writer thread is closed.
  t.after(() => {
    log2.dispose();
    db2.close();
    dir.cleanup();
  });
  assert.deepEqual(runs2.runsOf(sessionId).map((r) => [r.id, r.outcome, r.deniedCalls]), [['run_runlogtest01', 'completed', 1]]);
  const loaded = runs2.load('run_runlogtest01');
  assert.ok(loaded);
  const error = loaded.events.find((e) => e.kind === 'error');
  assert.ok(error?.kind === 'error' && error.message.startsWith('key [REDACTED:') && !error.message.includes('ghp_'), `a token in an error is scrubbed before it is stored: ${JSON.stringify(error)}`);
  const withoutError = (events: AgentRunEvent[]) => events.filter((e) => e.kind !== 'error');
  assert.deepEqual(withoutError(loaded.events), withoutError(live), 'the same events, in the same order, each image frame on its own');
  assert.equal(loaded.events.at(-1)?.kind, 'ended');
  // The session's replay still works with the agent kinds in it.
  assert.equal(replaySession(sessionId, log2.events(sessionId)).session.id, sessionId);
  // A rebuilt run replays and cannot be driven.
  const rebuilt = AgentRun.fromLog(loaded.info, loaded.events);
  assert.equal(rebuilt.ended, true);
  assert.equal(rebuilt.replay().length, loaded.events.length);
});

test('kill -9 mid-run: the next host closes the run as interrupted, with every chunk committed before the kill', async (t) => {
  const dir = tempDir('agent-run-crash');
  const file = join(dir.path, 'sessions.db');
  const sessionId = 'ses_runcrash0001';
  const runId = 'run_runcrash0001';
  const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'fixtures', 'agentRunWriter.ts'), file, sessionId, runId], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  const committed = await new Promise<number>((resolve, reject) => {
    let buffered = '';
    child.stdout.on('data', (data: Buffer) => {
      buffered += data;
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        const match = /^committed (\d+)$/.exec(line);
        if (match && Number(match[1]) >= 1000) {
          child.kill('SIGKILL');
          resolve(Number(match[1]));
        }
      }
    });
    child.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`the run writer exited by itself (${code}): ${stderr}`));
    });
  });
  await new Promise((resolve) => child.once('close', resolve));
  assert.equal(child.signalCode, 'SIGKILL');

  const db = openDatabase(file);
  const log = new EventLog(db);
  const runs = new AgentRunLog(db, log, new SecretScrubber());
  t.after(() => {
    log.dispose();
    db.close();
    dir.cleanup();
  });
  assert.equal(runs.runsOf(sessionId)[0].endedAt, null, 'before the restart, the log still has it running');
  assert.equal(runs.closeLost(100), 1);
  assert.equal(runs.closeLost(200), 0, 'closed once');
  const [record] = runs.runsOf(sessionId);
  assert.equal(record.outcome, 'interrupted');
  assert.equal(record.state, 'Terminated');
  assert.equal(record.error?.code, 'interrupted');
  const loaded = runs.load(runId)!;
  const text = loaded.events.map((e) => (e.kind === 'output' ? e.data : '')).join('');
  let expected = '';
  let count = 0;
  while (expected.length < text.length) expected += `${count++}\n`;
  assert.equal(text, expected, 'what survived is chunks 0.. in order, nothing missing');
  assert.ok(count >= committed, `${count} chunks survived; ${committed} were committed before the kill`);
  assert.deepEqual(
    loaded.events.filter((e) => e.kind === 'denied').map((e) => e.kind === 'denied' && e.call.target),
    ['secret.txt'],
  );
  assert.equal(loaded.events.at(-1)?.kind, 'ended');
});
