// The task board's status line: session.json has no "done" status (the spec's SessionState), so a finished run,
// whose file keeps "verifying", must still read as done.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { GoalSessionState } from '../../src-preload/contract';
import { stateSummary } from '../../src-renderer/features/goal/goalFormat';

const state = (status: GoalSessionState['status'], taskStatuses: ('pending' | 'complete' | 'failed')[], gapCount = 0): GoalSessionState => ({
  sessionId: 's1',
  status,
  currentPhase: 1,
  gapCount,
  plan: { tasks: taskStatuses.map((s, i) => ({ id: `0${i + 1}`, title: `Task ${i + 1}`, status: s, dependencies: [], commits: [] })), currentTaskIdx: taskStatuses.length },
  variables: {},
});

test('a finished run (status left "verifying", every task complete) reads as done, not as verifying', () => {
  assert.equal(stateSummary(state('verifying', ['complete', 'complete'])), 'done: all 2 tasks complete · phase 1');
  assert.equal(stateSummary(state('verifying', ['complete'])), 'done: all 1 task complete · phase 1');
});

test('a run still going, halted or without a plan shows session.json\'s status and the failed verifications', () => {
  assert.equal(stateSummary(state('verifying', ['complete', 'pending'], 2)), 'verifying · phase 1 · 2 failed verifications in a row');
  assert.equal(stateSummary(state('halted', ['complete', 'complete'])), 'halted · phase 1');
  assert.equal(stateSummary({ ...state('planning', []), plan: undefined }), 'planning · phase 1');
});
