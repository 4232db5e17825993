import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runningSentence, runningTotal } from '../../../../src-renderer/features/sessions/runningWords';

test('what runs in a session is said in one sentence, counted and agreed in number', () => {
  assert.equal(runningSentence({ terminals: 2, runs: 1, agents: 0 }), '2 terminals and 1 run are still running');
  assert.equal(runningSentence({ terminals: 1, runs: 0, agents: 0 }), '1 terminal is still running');
  assert.equal(runningSentence({ terminals: 0, runs: 3, agents: 0 }), '3 runs are still running');
  assert.equal(runningSentence({ terminals: 1, runs: 2, agents: 1 }), '1 terminal, 2 runs and 1 agent are still running');
  assert.equal(runningSentence({ terminals: 0, runs: 0, agents: 0 }), '');
  assert.equal(runningTotal({ terminals: 1, runs: 2, agents: 1 }), 4);
});
