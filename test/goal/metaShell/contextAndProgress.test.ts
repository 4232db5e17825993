import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { ContextRecorder, ProgressLevelError, ProgressLog, type ProgressEntry, type ProgressLevel } from '../../../src-main/node/goal/metaShell';
import { EventLog } from '../../../src-main/node/eventlog/eventLog';
import { EventKind } from '../../../src-main/node/eventlog/eventKinds';
import { replaySession } from '../../../src-main/node/eventlog/replaySession';
import { Ledger } from '../../../src-main/node/ledger/ledger';
import { openDatabase, type Database } from '../../../src-main/node/store/database';
import { SecretScrubber } from '../../../src-main/node/vault/secretScrubber';
import { tempDir } from '../../helpers';

const SES = 'ses_progress01';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('context.md: the host records its hash and ledgers every edit', () => {
  let dir: ReturnType<typeof tempDir>;
  let db: Database;
  let ledger: Ledger;
  let workspace: string;
  beforeEach(() => {
    dir = tempDir('context');
    db = openDatabase(join(dir.path, 'sessions.db'));
    ledger = new Ledger(db);
    workspace = join(dir.path, 'project');
    mkdirSync(join(workspace, '.meta'), { recursive: true });
  });
  afterEach(() => {
    ledger.dispose();
    db.close();
    dir.cleanup();
  });

  it('first sight is recorded, an unchanged file adds nothing, each edit is one entry with the old and new hash', () => {
    const recorder = new ContextRecorder(db, ledger);
    const v1 = '# Project: SuperTasker CLI\n\n## Current Phase Focus\n\nPhase 1: MVP\n';
    const v2 = v1.replace('Phase 1: MVP', 'Phase 2: Sync');
    assert.deepEqual(recorder.noteContextChange(workspace), { changed: false, oldSha256: null, newSha256: null, seq: null }, 'no context.md yet: nothing to record');
    writeFileSync(join(workspace, '.meta/context.md'), v1);
    assert.equal(recorder.noteContextChange(workspace, 'ses-1').changed, true);
    assert.equal(recorder.noteContextChange(workspace).changed, false, 'unchanged');
    writeFileSync(join(workspace, '.meta/context.md'), v2);
    // A restarted host compares with what the database recorded, not with memory.
    const change = new ContextRecorder(db, ledger).noteContextChange(workspace, 'ses-1');
    assert.deepEqual(change, { changed: true, oldSha256: sha256(v1), newSha256: sha256(v2), seq: 2 });
    rmSync(join(workspace, '.meta/context.md'));
    assert.equal(recorder.noteContextChange(workspace).newSha256, null);
    ledger.flush();
    const root = realpathSync(workspace);
    assert.deepEqual(
      ledger.list({ limit: 10 }).reverse().map((e) => [e.type, e.actor, e.payload]),
      [
        ['meta.context_recorded', 'user', { workspace: root, path: '.meta/context.md', old_sha256: null, new_sha256: sha256(v1), bytes: v1.length }],
        ['meta.context_edit', 'user', { workspace: root, path: '.meta/context.md', old_sha256: sha256(v1), new_sha256: sha256(v2), bytes: v2.length }],
        ['meta.context_edit', 'user', { workspace: root, path: '.meta/context.md', old_sha256: sha256(v2), new_sha256: null, bytes: null }],
      ],
    );
  });
});

describe('log_progress: a progress stream kept in the event log', () => {
  let dir: ReturnType<typeof tempDir>;
  let db: Database;
  let events: EventLog;
  beforeEach(() => {
    dir = tempDir('progress');
    db = openDatabase(join(dir.path, 'sessions.db'));
    events = new EventLog(db);
  });
  afterEach(() => {
    events.dispose();
    db.close();
    dir.cleanup();
  });

  it('streams each message to listeners and stores it, scrubbed of secrets; replay is unaffected; bad levels are refused', () => {
    const scrubber = new SecretScrubber();
    const progress = new ProgressLog({ events, scrub: (text) => scrubber.scrubText(text) });
    const seen: ProgressEntry[] = [];
    progress.onDidLog((entry) => seen.push(entry));
    const session = { id: SES, name: 'p', workspace: '/w', status: 'open', createdAt: 1, updatedAt: 1 };
    events.append({ sessionId: SES, kind: EventKind.sessionCreated, payload: session }, { durable: true });
    progress.log(SES, 'Planning: 3 tasks');
    progress.log(SES, 'Task 02 failed verification', 'warn');
    progress.log(SES, 'called with ghp_0123456789abcdefghijklmnopqrstuvwxyzAB', 'error');
    assert.throws(() => progress.log(SES, 'x', 'debug' as ProgressLevel), ProgressLevelError);
    assert.deepEqual(seen.map((e) => [e.level, e.message]), [
      ['info', 'Planning: 3 tasks'],
      ['warn', 'Task 02 failed verification'],
      ['error', 'called with [REDACTED:github-token]'],
    ]);
    const stored = events.events(SES).filter((e) => e.kind === EventKind.hostProgress);
    assert.deepEqual(stored.map((e) => e.payload), seen.map(({ level, message }) => ({ level, message })));
    assert.equal(replaySession(SES, events.events(SES)).session.id, SES, 'progress events replay as no-ops');
  });
});
