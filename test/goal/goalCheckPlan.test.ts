// goal.checkPlan: the editor's check-as-you-type asks the host, which applies Run's own plan parser and graph checks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hostWithWorkspace } from '../server/connect';

test('goal.checkPlan counts a good plan, names the line of a bad one, and leaves a plan-less goal to the planner agent', async (t) => {
  const { client } = await hostWithWorkspace(t);

  const good = '# Project: Demo\n\n## Plan\n- [01] Set up\n- [02] Build (after 01)\n';
  assert.deepEqual(await client.call('goal.checkPlan', { text: good }), { planner: 'deterministic', tasks: 2, problem: null });

  const unknownDependency = '# Project: Demo\n\n## Plan\n- [01] Set up\n- [02] Build (after 07)\n';
  const bad = await client.call('goal.checkPlan', { text: unknownDependency });
  assert.equal(bad.planner, 'deterministic');
  assert.equal(bad.problem?.line, 5);
  assert.match(bad.problem?.message ?? '', /^\.meta\/context\.md line 5: .*07/);

  const notATask = '## Plan\n- Set up without an id\n';
  const noId = await client.call('goal.checkPlan', { text: notATask });
  assert.equal(noId.problem?.line, 2);
  assert.match(noId.problem?.message ?? '', /has no task id; start it with an id in brackets/);

  assert.deepEqual(await client.call('goal.checkPlan', { text: '# Project: Demo\n\nA CLI.\n' }), { planner: 'llm', tasks: 0, problem: null });
  await assert.rejects(client.call('goal.checkPlan', { text: 'x'.repeat(200_001) }), { code: 'INVALID_PARAMS', message: /at most 200,000 characters/ });
});
