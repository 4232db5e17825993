// "Insert an example plan": what it adds is a plan Run accepts (the host's own parser says so), added once only.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hasContextPlan, parseContextPlan } from '../../../../src-main/node/goal/orchestrator/contextPlan';
import { EXAMPLE_PLAN, hasPlanHeading, withExamplePlan } from '../../../../src-renderer/features/goal/examplePlan';

test('the example plan parses with the host planner into three tasks in dependency order', () => {
  const tasks = parseContextPlan(`# Project: Demo\n\n${EXAMPLE_PLAN}`);
  assert.deepEqual(
    tasks.map((t) => [t.id, t.dependencies]),
    [
      ['01', []],
      ['02', ['01']],
      ['03', ['02']],
    ],
  );
  assert.equal(tasks[2].verifier, 'none');
});

test('it is appended after what is written, with a blank line, and the plan start is where the heading is', () => {
  const next = withExamplePlan('# Project: Demo\n\n## Vision\nA CLI.\n\n\n');
  assert.equal(next.text.slice(next.start, next.start + 7), '## Plan');
  assert.ok(next.text.startsWith('# Project: Demo\n\n## Vision\nA CLI.\n\n## Plan\n'));
  assert.deepEqual(withExamplePlan(''), { text: EXAMPLE_PLAN, start: 0 });
});

test('a text with a plan section gets no second one; the heading is found as the host finds it', () => {
  for (const text of ['## Plan\n- [a] x', '### plan:\n', '# PLAN  \n']) {
    assert.equal(hasPlanHeading(text), hasContextPlan(text), text);
    assert.equal(withExamplePlan(text).start, -1);
  }
  for (const text of ['## Planning\n', 'Plan\n', '## The plan\n']) assert.equal(hasPlanHeading(text), hasContextPlan(text), text);
});
