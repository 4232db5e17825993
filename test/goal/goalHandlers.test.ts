import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Contract, GoalCheckpoint, GoalRunView, LiveListFrame, ProgressEntry } from '../../src-preload/contract';
import type { RpcClient } from '../../src-preload/rpc';
import { waitFor } from '../helpers';
import { SPEC_EXAMPLE } from './metaShell/specExample';
import { hostWithWorkspace } from '../server/connect';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

async function ledgerOf(client: RpcClient<Contract>, sessionId: string, type: string) {
  return (await client.call('ledger.list', { sessionId, limit: 1000 })).filter((e) => e.type === type).reverse();
}

test('context.md: loaded, saved durably, each save ledgered with both hashes; a stale save is refused and writes nothing', async (t) => {
  const { client, workspace } = await hostWithWorkspace(t);
  const session = await client.call('session.create', { workspace: workspace.path });
  const file = join(workspace.path, '.meta/context.md');

  assert.deepEqual(await client.call('goal.context', { sessionId: session.id }), { text: null, sha256: null, bytes: 0 });

  const first = '# Project: SuperTasker CLI\n\n## Vision\n\nA task CLI.\n';
  const saved = await client.call('goal.saveContext', { sessionId: session.id, text: first, expectedSha256: null });
  assert.equal(readFileSync(file, 'utf8'), first);
  assert.equal(saved.sha256, sha256(first));
  const [recorded] = await ledgerOf(client, session.id, 'meta.context_recorded');
  assert.equal(recorded.seq, saved.ledgerSeq);
  assert.equal((recorded.payload as { new_sha256: string }).new_sha256, sha256(first));

  // Another window saved meanwhile: this editor's save (based on the first version) must not overwrite it.
  const other = `${first}\n## Tech Stack\n\n- Rust\n`;
  await client.call('goal.saveContext', { sessionId: session.id, text: other, expectedSha256: saved.sha256 });
  await assert.rejects(client.call('goal.saveContext', { sessionId: session.id, text: `${first}mine\n`, expectedSha256: saved.sha256 }), {
    code: 'CONFLICT',
    message: /changed on disk since the editor loaded it/,
  });
  assert.equal(readFileSync(file, 'utf8'), other);

  const edits = await ledgerOf(client, session.id, 'meta.context_edit');
  assert.equal(edits.length, 1);
  assert.deepEqual(
    { old: (edits[0].payload as { old_sha256: string }).old_sha256, new: (edits[0].payload as { new_sha256: string }).new_sha256, actor: edits[0].actor },
    { old: sha256(first), new: sha256(other), actor: 'user' },
  );

  // An edit made with another editor is noticed, and ledgered, when the app loads the file.
  const outside = `${other}\n## Current Phase Focus\n\nPhase 1\n`;
  writeFileSync(file, outside);
  const loaded = await client.call('goal.context', { sessionId: session.id });
  assert.equal(loaded.text, outside);
  assert.equal((await ledgerOf(client, session.id, 'meta.context_edit')).length, 2);

  // Saving the same text again changes nothing and ledgers nothing.
  const again = await client.call('goal.saveContext', { sessionId: session.id, text: outside, expectedSha256: loaded.sha256 });
  assert.equal(again.ledgerSeq, null);
  assert.equal((await ledgerOf(client, session.id, 'meta.context_edit')).length, 2);
});

test('context.md is refused through a .meta link and for a closed session, with errors that say why', async (t) => {
  const { client, workspace } = await hostWithWorkspace(t);
  const session = await client.call('session.create', { workspace: workspace.path });
  const elsewhere = join(workspace.path, 'elsewhere');
  mkdirSync(elsewhere);
  symlinkSync(elsewhere, join(workspace.path, '.meta'));
  await assert.rejects(client.call('goal.context', { sessionId: session.id }), { code: 'INVALID_STATE', message: /symbolic link/ });
  await assert.rejects(client.call('goal.saveContext', { sessionId: session.id, text: 'x' }), { code: 'INVALID_STATE', message: /symbolic link/ });
  assert.equal(existsSync(join(elsewhere, 'context.md')), false);

  await client.call('session.close', { id: session.id });
  await assert.rejects(client.call('goal.saveContext', { sessionId: session.id, text: 'x' }), { code: 'INVALID_STATE', message: /closed/ });
  await assert.rejects(client.call('goal.saveContext', { sessionId: session.id, text: 'x'.repeat(200_001) }), { code: 'INVALID_PARAMS' });
});

test('session.json: the state, or a typed problem: corrupt (kept aside, where) or invalid (which field)', async (t) => {
  const { client, workspace } = await hostWithWorkspace(t);
  const session = await client.call('session.create', { workspace: workspace.path });
  const meta = join(workspace.path, '.meta');
  assert.deepEqual(await client.call('goal.sessionState', { sessionId: session.id }), { state: null, problem: null });

  mkdirSync(meta);
  writeFileSync(join(meta, 'session.json'), JSON.stringify(SPEC_EXAMPLE));
  assert.deepEqual((await client.call('goal.sessionState', { sessionId: session.id })).state, SPEC_EXAMPLE);

  writeFileSync(join(meta, 'session.json'), JSON.stringify({ ...SPEC_EXAMPLE, status: 'sleeping' }));
  const invalid = await client.call('goal.sessionState', { sessionId: session.id });
  assert.equal(invalid.state, null);
  assert.equal(invalid.problem?.kind, 'invalid');
  assert.equal(invalid.problem?.field, 'status');

  writeFileSync(join(meta, 'session.json'), '{"sessionId": "trunc');
  const corrupt = await client.call('goal.sessionState', { sessionId: session.id });
  assert.equal(corrupt.problem?.kind, 'corrupt');
  assert.ok(corrupt.problem?.keptAt && existsSync(corrupt.problem.keptAt), 'the damaged file is kept where the problem says');
  assert.equal(readFileSync(corrupt.problem.keptAt, 'utf8'), '{"sessionId": "trunc');
});

test('checkpoints: raised one streams and is listed; a decision takes only its options; the first answer wins and is ledgered', async (t) => {
  const { host, client, workspace } = await hostWithWorkspace(t);
  const session = await client.call('session.create', { workspace: workspace.path });
  const events: LiveListFrame<GoalCheckpoint>[] = [];
  client.subscribe('goal.watchCheckpoints', { sessionId: session.id }, { onItem: (frame) => events.push(frame) });
  const other = await client.call('session.create', { workspace: workspace.path });
  // The live list starts with its snapshot: none pending yet.
  await waitFor(() => events.length === 1, 'the snapshot');
  assert.deepEqual(events.shift(), { kind: 'snapshot', items: [] });

  const { checkpoints, progress } = host.server.services;
  const logged: string[] = [];
  progress.onDidLog((entry) => logged.push(`${entry.sessionId === session.id ? 'this' : 'other'}: ${entry.message}`));
  checkpoints.raise(other.id, { type: 'checkpoint', reason: 'human_action', message: 'Elsewhere', options: [], resume_id: 'other_1' }, 'worker');
  checkpoints.raise(session.id, { type: 'checkpoint', reason: 'decision_required', message: 'Which auth provider?', options: ['Auth0', 'Supabase'], resume_id: 'step_2_auth_decision' }, 'executor');
  await waitFor(() => events.length === 1, 'the raised checkpoint on the stream');
  const raised = events[0].kind === 'upsert' ? events[0].item : undefined;
  assert.deepEqual([events[0].kind, raised?.resumeId, raised?.agentName], ['upsert', 'step_2_auth_decision', 'executor']);
  const pending = await client.call('goal.checkpoints', { sessionId: session.id });
  assert.deepEqual(pending.map((c) => [c.resumeId, c.reason, c.message, c.options]), [['step_2_auth_decision', 'decision_required', 'Which auth provider?', ['Auth0', 'Supabase']]]);

  await assert.rejects(client.call('goal.answer', { sessionId: session.id, resumeId: 'step_2_auth_decision', answer: 'Firebase' }), { code: 'INVALID_PARAMS', message: /not one of its options: "Auth0", "Supabase"/ });
  await assert.rejects(client.call('goal.answer', { sessionId: session.id, resumeId: 'nope', answer: 'Auth0' }), { code: 'NOT_FOUND' });
  const answered = await client.call('goal.answer', { sessionId: session.id, resumeId: 'step_2_auth_decision', answer: 'Auth0' });
  assert.deepEqual([answered.accepted, answered.checkpoint.status, answered.checkpoint.answer], [true, 'answered', 'Auth0']);
  const late = await client.call('goal.answer', { sessionId: session.id, resumeId: 'step_2_auth_decision', answer: 'Supabase' });
  assert.deepEqual([late.accepted, late.checkpoint.answer], [false, 'Auth0']);
  assert.deepEqual(logged, ['this: You answered "step_2_auth_decision": Auth0'], 'the accepted answer only, in the progress log');
  await waitFor(() => events.length === 2, 'the answer on the stream');
  assert.deepEqual(events[1], { kind: 'remove', id: 'step_2_auth_decision' }, 'the answered question leaves the pending list');
  assert.deepEqual(await client.call('goal.checkpoints', { sessionId: session.id }), []);
  const ledgered = await ledgerOf(client, session.id, 'checkpoint.answer');
  assert.deepEqual(
    ledgered.map((e) => [e.actor, e.payload]),
    [['user', { resume_id: 'step_2_auth_decision', answer: 'Auth0' }]],
  );
});

test('log_progress: earlier lines are replayed to a new subscriber, later ones arrive live, other sessions stay out', async (t) => {
  const { host, client, workspace } = await hostWithWorkspace(t);
  const session = await client.call('session.create', { workspace: workspace.path });
  const other = await client.call('session.create', { workspace: workspace.path });
  const { progress } = host.server.services;
  progress.log(session.id, 'Planning: 3 tasks');
  progress.log(other.id, 'not this one');
  progress.log(session.id, 'Task 02 failed verification', 'warn');

  const lines: ProgressEntry[] = [];
  client.subscribe('goal.progress', { sessionId: session.id }, { onItem: (entry) => lines.push(entry) });
  await waitFor(() => lines.length === 2, 'the replayed lines');
  progress.log(session.id, 'Task 03: build failed', 'error');
  await waitFor(() => lines.length === 3, 'the live line');
  assert.deepEqual(
    lines.map((l) => [l.level, l.message]),
    [
      ['info', 'Planning: 3 tasks'],
      ['warn', 'Task 02 failed verification'],
      ['error', 'Task 03: build failed'],
    ],
  );

  const recent: ProgressEntry[] = [];
  client.subscribe('goal.progress', { sessionId: session.id, replay: 1 }, { onItem: (entry) => recent.push(entry) });
  await waitFor(() => recent.length === 1, 'one replayed line');
  assert.equal(recent[0].message, 'Task 03: build failed');
});

test('goal runs through the contract: the current view first on the stream, typed refusals for a closed session and an unknown task', async (t) => {
  const { client, workspace } = await hostWithWorkspace(t);
  const session = await client.call('session.create', { workspace: workspace.path });
  const views: GoalRunView[] = [];
  client.subscribe('goal.watchRun', { sessionId: session.id }, { onItem: (frame) => views.push(...(frame.kind === 'snapshot' ? frame.items : frame.kind === 'upsert' ? [frame.item] : [])) });
  await waitFor(() => views.length >= 1, 'the current view');
  assert.deepEqual([views[0].sessionId, views[0].phase, views[0].state, views[0].activeTaskId], [session.id, 'idle', null, null]);
  assert.equal((await client.call('goal.view', { sessionId: session.id })).phase, 'idle');

  await assert.rejects(client.call('goal.rollback', { sessionId: session.id, taskId: '01' }), { code: 'NOT_FOUND', message: /no task "01" in the plan \(there is no plan yet\)/ });
  await assert.rejects(client.call('goal.rollback', { sessionId: session.id, taskId: '' }), { code: 'INVALID_PARAMS', message: /name the task to roll back/ });
  await assert.rejects(client.call('goal.start', { sessionId: 'ses_doesnotexist' }), { code: 'NOT_FOUND' });
  await client.call('session.close', { id: session.id });
  await assert.rejects(client.call('goal.start', { sessionId: session.id }), { code: 'INVALID_STATE', message: /closed/ });
});
