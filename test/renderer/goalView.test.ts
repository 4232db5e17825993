import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';
import type { GoalCheckpoint, GoalTask } from '../../src-preload/contract';
import { controlsFor, taskSummary } from '../../src-renderer/features/goal/goalFormat';
import { MAX_PROGRESS_LINES, useGoal } from '../../src-renderer/features/goal/goalStore';

const SES = 'ses_goalview1';
const checkpoint = (resumeId: string): GoalCheckpoint => ({
  sessionId: SES,
  resumeId,
  agentName: 'executor',
  reason: 'decision_required',
  message: `question ${resumeId}`,
  options: ['a', 'b'],
  status: 'pending',
  answer: null,
  answeredBy: null,
  createdAt: 1,
});
const task = (id: string, status: GoalTask['status']): GoalTask => ({ id, title: `task ${id}`, status, dependencies: [] });

beforeEach(() => useGoal.setState({ checkpoints: {}, progress: {}, dialogSetAside: {}, stateReads: {} }));

test('Run, Halt and Resume are offered only where they do something', () => {
  assert.deepEqual(controlsFor(null), { run: true, halt: false, resume: false });
  assert.deepEqual(controlsFor('idle'), { run: true, halt: false, resume: false });
  assert.deepEqual(controlsFor('running'), { run: false, halt: true, resume: false });
  assert.deepEqual(controlsFor('waiting_checkpoint'), { run: false, halt: true, resume: false });
  assert.deepEqual(controlsFor('halted'), { run: false, halt: false, resume: true });
  assert.deepEqual(controlsFor('failed'), { run: true, halt: false, resume: true });
  assert.deepEqual(controlsFor('done'), { run: false, halt: false, resume: false });
});

test('the folded panel summarises the plan', () => {
  assert.equal(taskSummary([]), 'no plan yet');
  assert.equal(taskSummary([task('01', 'complete'), task('02', 'pending'), task('03', 'failed')]), '1 of 3 tasks complete, 1 failed');
});

test('checkpoints: the live list sets them, a question answered here leaves at once, and a new one reopens a set-aside dialog', () => {
  const goal = useGoal.getState();
  goal.setCheckpoints(SES, [checkpoint('q1')]);
  goal.setDialogAside(SES, true);
  goal.setCheckpoints(SES, [checkpoint('q1')]);
  assert.equal(useGoal.getState().dialogSetAside[SES], true, 'the same questions again (a fresh snapshot) keep the dialog aside');

  goal.setCheckpoints(SES, [checkpoint('q1'), checkpoint('q2')]);
  assert.deepEqual(useGoal.getState().checkpoints[SES]?.map((c) => c.resumeId), ['q1', 'q2']);
  assert.equal(useGoal.getState().dialogSetAside[SES], false, 'a new question is shown, not hidden behind the banner');

  goal.checkpointAnswered({ ...checkpoint('q1'), status: 'answered', answer: 'a' });
  assert.deepEqual(useGoal.getState().checkpoints[SES]?.map((c) => c.resumeId), ['q2']);
});

test('the progress log keeps the newest lines once it is full', () => {
  const goal = useGoal.getState();
  for (let i = 0; i < MAX_PROGRESS_LINES + 5; i++) goal.addProgress(SES, { ts: i, level: 'info', message: `line ${i}` });
  const lines = useGoal.getState().progress[SES]!;
  assert.equal(lines.length, MAX_PROGRESS_LINES);
  assert.equal(lines[0].message, 'line 5');
  assert.equal(lines.at(-1)!.message, `line ${MAX_PROGRESS_LINES + 4}`);
  goal.resetProgress(SES);
  assert.deepEqual(useGoal.getState().progress[SES], []);
});

test('a corrupt session.json stays reported after it was moved aside (the next read finds no file), until a state appears', () => {
  const goal = useGoal.getState();
  const corrupt = { state: null, problem: { kind: 'corrupt' as const, message: 'not JSON', field: null, keptAt: '/w/.meta/session.json.corrupt-1' } };
  goal.setStateRead(SES, corrupt);
  goal.setStateRead(SES, { state: null, problem: null });
  assert.equal(useGoal.getState().stateReads[SES]?.problem?.keptAt, '/w/.meta/session.json.corrupt-1');
  const state = { sessionId: SES, status: 'planning' as const, currentPhase: 1, gapCount: 0, variables: {} };
  goal.setStateRead(SES, { state, problem: null });
  assert.deepEqual(useGoal.getState().stateReads[SES], { state, problem: null });
});
