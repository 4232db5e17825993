import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseContextPlan } from '../../../src-main/node/goal/orchestrator/contextPlan';
import { parseLlmPlan } from '../../../src-main/node/goal/orchestrator/llmPlan';
import { PlanError } from '../../../src-main/node/goal/orchestrator/plannedTask';
import { buildStatePrompt } from '../../../src-main/node/goal/orchestrator/statePrompt';
import { readVerdict } from '../../../src-main/node/goal/orchestrator/verdict';

const CONTEXT_HEAD = '# Project: SuperTasker CLI\n\n## Vision\n\nA fast CLI.\n\n';

const planError = (run: () => unknown): PlanError => {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof PlanError, String(error));
    return error;
  }
  assert.fail('expected a PlanError');
};

describe('the "## Plan" of context.md (deterministic planner)', () => {
  it('reads ids, titles, dependencies in the forgiving forms, agents and instructions; stops at the next heading', () => {
    const tasks = parseContextPlan(
      `${CONTEXT_HEAD}## Plan\n\n- [01] Setup Cargo project\n* [02] Implement SQLite schema (after 01)\n  agent: scaffolder\n  verifier: none\n  Tables: tasks, tags.\n  Keep it small.\n` +
        `1. [03] Build TUI list view (depends on [01] and 02)\n+ [04] Release (needs 03)\n\n## Notes\n\n- [99] not a task\n`,
    );
    assert.deepEqual(tasks, [
      { id: '01', title: 'Setup Cargo project', dependencies: [] },
      { id: '02', title: 'Implement SQLite schema', dependencies: ['01'], agent: 'scaffolder', verifier: 'none', instructions: 'Tables: tasks, tags.\nKeep it small.' },
      { id: '03', title: 'Build TUI list view', dependencies: ['01', '02'] },
      { id: '04', title: 'Release', dependencies: ['03'] },
    ]);
  });

  it('names the line and says how to write it when the plan is malformed', () => {
    const at = (plan: string) => planError(() => parseContextPlan(`${CONTEXT_HEAD}## Plan\n${plan}`));
    const first = 8; // the line after "## Plan"
    let error = at('- [01] Setup\nSetup the database\n');
    assert.equal(error.line, first + 1);
    assert.match(error.message, /^\.meta\/context\.md line 9: "Setup the database" is not a task; write each task as a list item, e.g. "- \[02\]/);
    error = at('- Setup project\n');
    assert.equal(error.line, first);
    assert.match(error.message, /"Setup project" has no task id; start it with an id in brackets/);
    assert.match(at('- [0 1] Setup\n').message, /line 8: task id "0 1" must be letters, digits/);
    assert.match(at('- [01]   \n').message, /line 8: task 01 has no title/);
    assert.match(at('- [01] Setup\n- [02] Schema (after 01\n').message, /line 9: task 02: the dependency list is not closed/);
    assert.match(at('  indented first\n').message, /line 8: .* is indented but no task comes before it/);
    assert.match(at('\n\n').message, /line 7: the "## Plan" section has no tasks/);
    assert.match(at('- [01] Setup\n  agent: \n').message, /line 9: task 01: "agent:" needs an agent name/);
    assert.match(planError(() => parseContextPlan(CONTEXT_HEAD)).message, /there is no "## Plan" section/);
  });

  it('rejects a task graph that is not a DAG, naming the task and its line', () => {
    const at = (plan: string) => planError(() => parseContextPlan(`${CONTEXT_HEAD}## Plan\n${plan}`));
    let error = at('- [01] Setup\n- [02] Schema (after 07)\n');
    assert.equal(error.line, 9);
    assert.match(error.message, /"Schema" \(task 02\) depends on "07", which is not a task of the plan \(tasks: 01, 02\)/);
    error = at('- [01] Setup (after 03)\n- [02] Schema (after 01)\n- [03] View (after 02)\n');
    assert.equal(error.line, 8);
    assert.match(error.message, /cycle: 01 → 03 → 02 → 01; remove one of these dependencies/);
    assert.match(at('- [01] Setup (after 01)\n').message, /task 01\) depends on itself/);
    assert.match(at('- [01] Setup\n- [01] Again\n').message, /line 9: "Again" repeats task id "01"/);
  });
});

describe("the planner agent's JSON task list (LLM planner)", () => {
  it('accepts the JSON inside a fence or prose, a bare array, numeric ids', () => {
    const tasks = parseLlmPlan('Here is the plan:\n```json\n{"tasks":[{"id":1,"title":"Setup"},{"id":"2","title":"Schema","dependencies":[1],"instructions":"tables"}]}\n```\nGood luck.');
    assert.deepEqual(tasks, [
      { id: '1', title: 'Setup', dependencies: [] },
      { id: '2', title: 'Schema', dependencies: ['1'], instructions: 'tables' },
    ]);
    assert.equal(parseLlmPlan('[{"id":"a","title":"A"}]')[0].id, 'a');
  });

  it('says what was wrong with it', () => {
    assert.match(planError(() => parseLlmPlan('I think we should start with the schema.')).message, /^planner output: has no JSON in it \(it begins "I think/);
    assert.match(planError(() => parseLlmPlan('{"tasks": [ {"id": "01", }]}')).message, /^planner output: is not JSON/);
    assert.match(planError(() => parseLlmPlan('{"tasks":[{"id":"01"}]}')).message, /"tasks\.0\.title" is missing/);
    assert.match(planError(() => parseLlmPlan('{"tasks":[{"id":"01","title":"A","dependencies":"none"}]}')).message, /"tasks\.0\.dependencies"/);
    assert.match(planError(() => parseLlmPlan('{"tasks":[]}')).message, /the plan has no tasks/);
    assert.match(planError(() => parseLlmPlan('{"tasks":[{"id":"a","title":"A","dependencies":["b"]},{"id":"b","title":"B","dependencies":["a"]}]}')).message, /^planner output: tasks depend on each other in a cycle: a → b → a/);
    assert.match(planError(() => parseLlmPlan('{"tasks":[{"id":"a","title":"A","dependencies":["zz"]}]}')).message, /tasks\.0 \(task a\) depends on "zz", which is not a task/);
  });
});

describe('the state prompt and the verdict', () => {
  it("is the spec's form: Current State: Phase 1 (Executing Task 02), Context: …", () => {
    const state = {
      sessionId: 's',
      status: 'executing' as const,
      currentPhase: 1,
      gapCount: 0,
      variables: {},
      plan: { currentTaskIdx: 1, tasks: [{ id: '01', title: 'a', status: 'complete' as const, dependencies: [] }, { id: '02', title: 'b', status: 'pending' as const, dependencies: ['01'] }] },
    };
    assert.equal(buildStatePrompt(state, '# Project: X'), 'Current State: Phase 1 (Executing Task 02), Context: # Project: X');
    assert.equal(buildStatePrompt({ ...state, status: 'verifying' }, 'C'), 'Current State: Phase 1 (Verifying Task 02), Context: C');
    assert.equal(buildStatePrompt({ ...state, status: 'planning', plan: undefined }, 'C'), 'Current State: Phase 1 (Planning), Context: C');
  });

  it('reads pass and fail in JSON or as a first word; anything else is a failed verification', () => {
    const success = (data: string) => ({ status: 'success' as const, data, metadata: { tokens_used: 0, duration_ms: 0 } });
    assert.deepEqual(readVerdict(success('{"verdict":"pass"}')), { passed: true, gaps: '' });
    assert.deepEqual(readVerdict(success('{"verdict":"fail","gaps":["no tests","no README"]}')), { passed: false, gaps: '- no tests\n- no README' });
    assert.deepEqual(readVerdict(success('FAIL: the schema has no index')), { passed: false, gaps: 'the schema has no index' });
    assert.equal(readVerdict(success('PASS')).passed, true);
    assert.match(readVerdict(success('looks fine to me')).gaps, /has no verdict/);
    assert.match(readVerdict({ status: 'timeout', data: 'killed', metadata: { tokens_used: 0, duration_ms: 0 } }).gaps, /ended with "timeout"/);
  });
});
