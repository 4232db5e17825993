// A goal run's tasks are turns: each task's agent call (the executor's, then the verifier's) lies between a snapshot
// taken before the agent is spawned and one taken after it answers, on real parts (git workspace, SQLite, the ledger,
// the shadow store); only the agents are scripted.
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ChangesService } from '../../src-main/node/changes/changesService';
import { ShadowStore } from '../../src-main/node/changes/shadowStore';
import { Orchestrator } from '../../src-main/node/goal/orchestrator/orchestrator';
import { SessionService } from '../../src-main/node/sessions/sessionService';
import { SecretScrubber } from '../../src-main/node/vault/secretScrubber';
import { GoalRunFixture, ok, SESSION } from '../goal/orchestrator/goalRunFixture';

test("a goal task's agent calls are goal_task turns holding what the agent wrote", { timeout: 60_000 }, async (t) => {
  const fx = new GoalRunFixture({});
  const now = Date.now();
  fx.db.prepare("INSERT INTO sessions (id, name, workspace, status, created_at, updated_at) VALUES (?, 'goal', ?, 'open', ?, ?)").run(SESSION, fx.workspace, now, now);
  const changes = new ChangesService({
    db: fx.db,
    ledger: fx.ledger,
    sessions: new SessionService(fx.db, fx.ledger),
    scrubber: new SecretScrubber(),
    log: { error: (...parts: unknown[]) => assert.fail(parts.map(String).join(' ')) },
    openEngine: (workspace) => ShadowStore.open(join(fx.dir.path, 'home'), workspace),
  });
  t.after(async () => {
    await changes.dispose();
    await fx.dispose();
  });
  fx.writeContext('# P\n\n## Plan\n- [01] Setup\n');
  fx.orchestrator = new Orchestrator({
    spawnAgent: async (agent) => {
      // The snapshot before the task was taken before the agent is spawned.
      const open = changes.turns(SESSION).filter((turn) => turn.endedAt === null);
      assert.equal(open.length, 1, 'one turn is open while the agent runs');
      assert.equal(existsSync(join(fx.workspace, 'a.txt')), agent === 'verifier');
      if (agent !== 'executor') return ok('{"verdict":"pass"}');
      writeFileSync(join(fx.workspace, 'a.txt'), 'a\n');
      return ok();
    },
    workspaceOf: () => fx.workspace,
    checkpoints: fx.checkpoints,
    progress: fx.progress,
    ledger: fx.ledger,
    config: { answerPollMs: 10 },
    turns: changes,
  });
  await fx.orchestrator.start(SESSION, 'user');
  assert.equal((await fx.orchestrator.whenIdle(SESSION)).phase, 'done');

  const turns = changes.turns(SESSION);
  assert.deepEqual(turns.map((turn) => [turn.source.kind, turn.source.id, turn.agent, turn.title]), [
    ['goal_task', '01', 'executor', 'Task 01 (executor)'],
    ['goal_task', '01', 'verifier', 'Task 01 (verifier)'],
  ]);
  assert.ok(turns.every((turn) => turn.endedAt !== null));
  const executed = await changes.files(turns[0].id);
  assert.ok(executed.files.some((file) => file.path === 'a.txt' && file.status === 'added'), JSON.stringify(executed.files));
  assert.ok(!(await changes.files(turns[1].id)).files.some((file) => file.path === 'a.txt'), "the verifier's turn did not write a.txt");
});
