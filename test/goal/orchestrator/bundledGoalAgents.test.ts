// A goal run with nothing but the bundled agents (assets/agents/executor and verifier, built by
// scripts/build-agents.mjs) through the real host: spawn_agent, the WASM sandbox, commands in the OS sandbox, real git,
// the CheckpointStore on SQLite. Consent cards are answered through the consent engine's prompt stream as a user
// would (Allow for 10 minutes for a file, Allow once for a command), checkpoints through goal.answer.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { AgentRunEvent, ConsentPrompt, ConsentPromptEvent, GoalRunView } from '../../../src-preload/contract';
import type { ConnectionContext, StreamSink } from '../../../src-preload/rpc';
import { createHostServices, type HostServices } from '../../../src-main/node/hostServices';
import { MetaState } from '../../../src-main/node/goal/metaShell';
import { tempDir, waitFor } from '../../helpers';

const CONNECTION: ConnectionContext = { connectionId: 1, transport: 'memory' };
const sinkOf = <T>(push: (item: T) => void): StreamSink<T> => ({ push, end: () => undefined, onFlowControl: () => undefined, isPaused: false, isClosed: false });

interface GoalHost {
  services: HostServices;
  home: string;
  workspace: string;
  sessionId: string;
  /** Every consent card shown, in order. */
  cards: ConsentPrompt[];
  /** Every GoalRunView published for the session. */
  views: GoalRunView[];
  git(...args: string[]): string;
  runUntil(phases: GoalRunView['phase'][], what: string): Promise<GoalRunView>;
}

/** How the user answers a file-write card: "Allow for 10 minutes" or "Allow once" (commands: always Allow once). */
type WriteAnswer = { kind: 'allow_once' } | { kind: 'allow_for'; minutes: number };

async function startGoalHost(t: { after(fn: () => unknown): void }, context: string, writeAnswer: WriteAnswer = { kind: 'allow_for', minutes: 10 }): Promise<GoalHost> {
  assert.ok(existsSync(join(__dirname, '../../../assets/agents/executor/agent.wasm')), 'the bundled agents are not built: run `npm run build`');
  const home = tempDir('goal-home');
  const workspace = tempDir('goal-ws');
  mkdirSync(join(workspace.path, '.meta'));
  writeFileSync(join(workspace.path, '.meta', 'context.md'), context);
  const services = await createHostServices({ home: home.path, version: '0.0.0-test', keychain: 'off' });
  const session = await services.handlers['session.create']({ workspace: workspace.path }, CONNECTION);
  const cards: ConsentPrompt[] = [];
  const prompts = services.handlers['consent.prompts'](
    { sessionId: session.id },
    sinkOf<ConsentPromptEvent>((event) => {
      if (event.kind !== 'pending') return;
      cards.push(event.prompt);
      const answer = event.prompt.capability === 'process.exec' ? ({ kind: 'allow_once' } as const) : writeAnswer;
      void services.handlers['consent.answer']({ promptId: event.prompt.id, answer }, CONNECTION);
    }),
    CONNECTION,
  );
  const views: GoalRunView[] = [];
  const watching = services.goalRuns.onDidChange((view) => {
    if (view.sessionId === session.id) views.push(view);
  });
  t.after(async () => {
    watching.dispose();
    prompts?.dispose();
    await services.dispose();
    home.cleanup();
    workspace.cleanup();
  });
  return {
    services,
    home: home.path,
    workspace: workspace.path,
    sessionId: session.id,
    cards,
    views,
    git: (...args) => execFileSync('git', args, { cwd: workspace.path, encoding: 'utf8' }).trim(),
    runUntil: (phases, what) =>
      waitFor(() => {
        const view = services.goalRuns.view(session.id);
        return phases.includes(view.phase) ? view : null;
      }, what, 150_000),
  };
}

const cardsOf = (host: GoalHost) => host.cards.map((card) => `${card.agentId} ${card.capability} ${card.action ?? card.target}`);

test('the bundled executor and verifier run a "## Plan": a file written, a command run, each task checked and committed', { timeout: 200_000 }, async (t) => {
  const host = await startGoalHost(
    t,
    [
      '# Project: greeting',
      '',
      '## Plan',
      '',
      '- [01] Write the greeting',
      '  write greeting.txt',
      '  ```',
      '  Hello, world',
      '',
      '    (indented)',
      '  ```',
      '  check: grep -q "Hello, world" greeting.txt',
      '- [02] Count its lines (after 01)',
      '  $ wc -l < greeting.txt > count.txt',
      '  check: test "$(cat count.txt)" -eq 3',
      '',
    ].join('\n'),
  );
  await host.services.goalRuns.start(host.sessionId, 'user');
  const view = await host.runUntil(['done', 'failed', 'halted'], 'the goal run to end');
  assert.equal(view.phase, 'done', view.message ?? '');
  assert.equal(view.planner, 'deterministic');

  const state = (await new MetaState(host.workspace).read())!;
  assert.deepEqual(state.plan!.tasks.map((task) => [task.id, task.status, task.commits!.length]), [['01', 'complete', 1], ['02', 'complete', 1]]);
  assert.equal(state.gapCount, 0);
  assert.equal(readFileSync(join(host.workspace, 'greeting.txt'), 'utf8'), 'Hello, world\n\n  (indented)\n', 'the fenced block as written, its blank line and extra indentation kept');
  assert.equal(readFileSync(join(host.workspace, 'count.txt'), 'utf8').trim(), '3');
  assert.deepEqual(host.git('log', '--format=%s').split('\n'), ['Task 02: Count its lines', 'Task 01: Write the greeting']);
  assert.equal(host.git('show', '--name-only', '--format=', state.plan!.tasks[0].commits![0]), 'greeting.txt');
  assert.equal(host.git('show', '--name-only', '--format=', state.plan!.tasks[1].commits![0]), 'count.txt');
  // One card per file write and per command, each naming what it allows.
  assert.deepEqual(cardsOf(host), [
    'executor files.write greeting.txt',
    'verifier process.exec ["/bin/sh","-c","grep -q \\"Hello, world\\" greeting.txt"] in .',
    'executor process.exec ["/bin/sh","-c","wc -l < greeting.txt > count.txt"] in .',
    'verifier process.exec ["/bin/sh","-c","test \\"$(cat count.txt)\\" -eq 3"] in .',
  ]);
});

test('a failing check: gapCount grows with each retry until the circuit breaker halts; fixed by the user, Resume completes', { timeout: 200_000 }, async (t) => {
  const host = await startGoalHost(
    t,
    ['# Project: config', '', '## Plan', '', '- [01] Configure', '  write app.conf', '  ```', '  mode = fast', '  ```', '  check: test -f secret.key', ''].join('\n'),
  );
  const { goalRuns, checkpoints } = host.services;
  await goalRuns.start(host.sessionId, 'user');
  const halted = await host.runUntil(['done', 'failed', 'halted'], 'the circuit breaker to halt the run');
  assert.equal(halted.phase, 'halted', halted.message ?? '');
  assert.match(halted.message ?? '', /^Circuit breaker: verification of task 01 failed 3 times in a row/);
  assert.deepEqual([...new Set(host.views.map((view) => view.state?.gapCount))].filter((n) => n !== undefined), [0, 1, 2, 3]);
  assert.equal(halted.state!.plan!.tasks[0].status, 'failed');
  // The first attempt's file is committed; the retries changed nothing, so nothing more was committed.
  assert.equal(halted.state!.plan!.tasks[0].commits!.length, 1);
  const [question] = checkpoints.pending(host.sessionId);
  assert.equal(question.resumeId, 'circuit_breaker.01.1');
  assert.match(question.message, /check `test -f secret\.key` \(instruction line 5\) exited with code 1/);

  writeFileSync(join(host.workspace, 'secret.key'), 'k\n');
  await host.services.handlers['goal.answer']({ sessionId: host.sessionId, resumeId: question.resumeId, answer: 'I created secret.key' }, CONNECTION);
  // The user's fix is uncommitted work: Resume asks what to do with it first (test/goal/dirtyTree.test.ts).
  await assert.rejects(goalRuns.resume(host.sessionId, 'user'), { name: 'DirtyTreeError' });
  await goalRuns.resume(host.sessionId, 'user', 'commit');
  const done = await host.runUntil(['done', 'failed', 'halted'], 'the resumed run to end');
  assert.equal(done.phase, 'done', done.message ?? '');
  assert.equal(done.state!.gapCount, 0);
  assert.equal(done.state!.plan!.tasks[0].status, 'complete');
});

test('an "ask:" line raises a checkpoint; the answer is used by the lines after it; an unknown line fails the task naming it', { timeout: 200_000 }, async (t) => {
  const host = await startGoalHost(
    t,
    [
      '# Project: auth',
      '',
      '## Plan',
      '',
      '- [01] Choose the auth provider',
      '  $ echo started > started.txt',
      '  ask: Which auth provider? [Auth0 | Supabase]',
      '  write auth.conf',
      '  ```',
      '  provider = {answer}',
      '  ```',
      '  $ echo "chose {answer}" > choice.log',
      '  check: grep -q "provider = Supabase" auth.conf',
      '- [02] Deploy (after 01)',
      '  frobnicate the widget',
      '  write never.txt',
      '  ```',
      '  x',
      '  ```',
      '',
    ].join('\n'),
    // "Allow once" on the file card: that one write may happen (and the card is not asked again within the write).
    { kind: 'allow_once' },
  );
  const { goalRuns, checkpoints } = host.services;
  await goalRuns.start(host.sessionId, 'user');
  const waiting = await host.runUntil(['waiting_checkpoint', 'done', 'failed', 'halted'], 'the executor to ask');
  assert.equal(waiting.phase, 'waiting_checkpoint', waiting.message ?? '');
  const [question] = checkpoints.pending(host.sessionId);
  assert.equal(question.reason, 'decision_required');
  assert.equal(question.message, 'Which auth provider?');
  assert.deepEqual(question.options, ['Auth0', 'Supabase']);
  assert.equal(question.resumeId, 'ask.01.1');
  assert.equal(readFileSync(join(host.workspace, 'started.txt'), 'utf8'), 'started\n', 'the line before the question ran');

  await host.services.handlers['goal.answer']({ sessionId: host.sessionId, resumeId: question.resumeId, answer: 'Supabase' }, CONNECTION);
  const stopped = await host.runUntil(['done', 'failed', 'halted'], 'the run to end');
  assert.equal(readFileSync(join(host.workspace, 'auth.conf'), 'utf8'), 'provider = Supabase\n');
  assert.equal(readFileSync(join(host.workspace, 'choice.log'), 'utf8'), 'chose Supabase\n');
  const tasks = stopped.state!.plan!.tasks;
  assert.equal(tasks[0].status, 'complete');
  assert.equal(host.git('show', '--name-only', '--format=', tasks[0].commits![0]).split('\n').sort().join(' '), 'auth.conf choice.log started.txt');
  // The executor did not pass over the line it does not know, and did nothing of task 02.
  assert.equal(stopped.phase, 'failed');
  assert.equal(tasks[1].status, 'failed');
  assert.match(stopped.message ?? '', /Task 02, instruction line 1 "frobnicate the widget": not an instruction the executor knows; write "\$ <command>"/);
  assert.equal(existsSync(join(host.workspace, 'never.txt')), false);
  // The started line ran once: the resumed turn went on after the question.
  assert.equal(host.cards.filter((card) => card.action?.includes('echo started')).length, 1);
  assert.deepEqual(host.cards.filter((card) => card.capability === 'files.write').map((card) => card.target), ['auth.conf']);
});

test('a command on a file its own task writes is refused before anything runs (it could not see the staged write)', { timeout: 60_000 }, async (t) => {
  const host = await startGoalHost(
    t,
    ['# Project: x', '', '## Plan', '', '- [01] Write and show', '  $ echo first > first.txt', '  write notes/a.txt', '  ```', '  a', '  ```', '  $ cat ./notes/a.txt | wc -l', ''].join('\n'),
  );
  await host.services.goalRuns.start(host.sessionId, 'user');
  const view = await host.runUntil(['done', 'failed', 'halted'], 'the run to stop');
  assert.equal(view.phase, 'failed');
  assert.match(view.message ?? '', /Task 01, instruction line 6 "\$ cat \.\/notes\/a\.txt \| wc -l": the command names notes\/a\.txt, which line 2 of this task writes; a command does not see the task's own writes/);
  assert.equal(existsSync(join(host.workspace, 'first.txt')), false, 'not even the first line ran');
  assert.deepEqual(host.cards, []);
});

test('no "## Plan" and no planner agent: Run says what to do', { timeout: 60_000 }, async (t) => {
  const host = await startGoalHost(t, '# Project: todo app\n\nA small todo app in Rust.\n');
  await host.services.goalRuns.start(host.sessionId, 'user');
  const view = await host.runUntil(['done', 'failed', 'halted'], 'the run to stop');
  assert.equal(view.phase, 'failed');
  assert.match(view.message ?? '', /^\.meta\/context\.md: has no "## Plan" section, and no planner agent "planner" is installed to plan the goal; write a "## Plan" section in \.meta\/context\.md .*or add a model connection in Connections and an LLM planner agent named "planner"/);
  assert.deepEqual(host.cards, []);
});

test('a model-backed planner but no connection: the run stops with connection_unavailable and the same advice', { timeout: 60_000 }, async (t) => {
  const host = await startGoalHost(t, '# Project: todo app\n\nA small todo app in Rust.\n');
  const folder = join(host.home, 'agents', 'planner');
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, 'manifest.toml'),
    'schema_version = "0.1"\nname = "planner"\nversion = "0.1.0"\nentry = "agent.llm.toml"\nsandbox = "wasm"\ncapabilities = ["oauth:anthropic.api"]\noauth_scopes = ["anthropic:api"]\nresources.cpu = "500m"\nresources.mem = "64Mi"\nui.hints = ["streaming"]\n',
  );
  writeFileSync(join(folder, 'agent.llm.toml'), 'provider = "anthropic"\n');
  await host.services.goalRuns.start(host.sessionId, 'user');
  const view = await host.runUntil(['done', 'failed', 'halted'], 'the run to stop');
  assert.equal(view.phase, 'failed');
  assert.match(view.message ?? '', /^planner output: the planner agent "planner" ended with "error" instead of a plan: "planner" failed \(connection_unavailable\): "planner" cannot reach anthropic: .*connect anthropic in Connections.*\); write a "## Plan" section in \.meta\/context\.md .*or add a model connection in Connections/s);
});

test('started by hand (the Agents view), the executor takes its prompt as instruction lines and the verifier its check: lines', { timeout: 60_000 }, async (t) => {
  const host = await startGoalHost(t, '# Project: by hand\n');
  const runAgent = async (agent: string, prompt: string) => {
    const started = await host.services.handlers['agent.start']({ sessionId: host.sessionId, agent, prompt }, CONNECTION);
    const events: AgentRunEvent[] = [];
    await new Promise<void>((resolve) => {
      host.services.handlers['agent.events']({ runId: started.id }, { push: (event: AgentRunEvent) => events.push(event), end: () => resolve(), onFlowControl: () => undefined, isPaused: false, isClosed: false }, CONNECTION);
    });
    const ended = events.at(-1);
    const main = events.flatMap((event) => (event.kind === 'output' && event.cardKind !== 'log' ? [event.data] : [])).join('');
    return { outcome: ended?.kind === 'ended' ? ended.run.outcome : null, main };
  };
  const made = await runAgent('executor', '$ echo by hand > hand.txt');
  assert.equal(made.outcome, 'completed', made.main);
  assert.equal(readFileSync(join(host.workspace, 'hand.txt'), 'utf8'), 'by hand\n');
  assert.match(made.main, /^Done:\n- ran `echo by hand > hand.txt`/);
  const checked = await runAgent('verifier', 'check: grep -q "by hand" hand.txt');
  assert.equal(checked.outcome, 'completed');
  assert.deepEqual(JSON.parse(checked.main), { verdict: 'pass', summary: 'the check passed' });
  const unknown = await runAgent('executor', 'make me a sandwich');
  assert.notEqual(unknown.outcome, 'completed');
  assert.match(unknown.main, /^Prompt line 1 "make me a sandwich": not an instruction the executor knows/);
});
