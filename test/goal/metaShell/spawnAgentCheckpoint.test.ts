// Checkpoints through spawn_agent (spec host-interface-v3.1 §1 Resume, §2), real host, real native agent: the agent
// asks "Which auth provider?", spawn_agent answers status "checkpoint" with the signal and keeps it pending in the
// store; once the user answers, the resume runs the agent again, once, with "User replied: Auth0" in its context and
// resume_data in its input; time spent waiting for the answer is not counted against timeout_seconds.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { CheckpointRef } from '../../../src-main/node/goal/metaShell';
import type { SpawnCall } from '../../../src-main/node/goal/metaShell/spawnCall';
import { waitFor } from '../../helpers';
import { startSpawnHost } from './fixtures/spawnHost';

const SIGNAL = {
  type: 'checkpoint',
  reason: 'decision_required',
  message: 'Which auth provider?',
  options: ['Auth0', 'Supabase'],
  resume_id: 'step_2_auth_decision',
};

/**
 * First turn: asks which provider (its output is the checkpoint signal). Resumed turn (resume_data in its input):
 * reports the reply as its prompt has it and the answer as resume_data has it, and writes the choice to a file.
 */
const AUTH_AGENT = `#!/bin/sh
read -r input
out() { printf '{"schema_version":"0.1","type":"output","agent_id":"auth-setup","chunk_id":"main","content_type":"text/plain","data":"%s"}\\n' "$1"; }
case "$input" in
  *'"resume_data":{"checkpoint_id":"step_2_auth_decision"'*)
    reply=$(printf '%s' "$input" | grep -o 'User replied: [^"\\\\]*' | head -n 1)
    answer=$(printf '%s' "$input" | sed -n 's/.*"user_input":"\\([^"]*\\)".*/\\1/p')
    echo "auth: $answer" > auth-choice.txt
    out "$reply | resume_data.user_input: $answer | login added"
    ;;
  *)
    out '${JSON.stringify(SIGNAL).replaceAll('"', '\\"')}'
    ;;
esac
`;

const CALL: SpawnCall = { agent_name: 'auth-setup', system_prompt: 'You add login to apps.', user_message: 'Add login to the app.', options: { timeout_seconds: 30 } };
const spawnStarts = (host: Awaited<ReturnType<typeof startSpawnHost>>) => host.services.ledger.list({ sessionId: host.sessionId, limit: 500 }).filter((entry) => entry.type === 'host.spawn_start').length;

test('an agent raises a checkpoint, the user answers, the agent resumes once with "User replied: Auth0" and finishes', { timeout: 90_000 }, async (t) => {
  const host = await startSpawnHost(t);
  host.installNative('auth-setup', AUTH_AGENT);
  const { spawnAgent, checkpoints } = host.services;

  const asked = await spawnAgent.spawn(CALL.agent_name, CALL.system_prompt, CALL.user_message, CALL.options, host.context);
  assert.equal(asked.status, 'checkpoint', asked.data);
  assert.deepEqual(JSON.parse(asked.data), SIGNAL);
  const pending = checkpoints.pending(host.sessionId);
  assert.deepEqual(
    pending.map((record) => [record.resumeId, record.agentName, record.message, record.options]),
    [['step_2_auth_decision', 'auth-setup', 'Which auth provider?', ['Auth0', 'Supabase']]],
    'kept in the store (durable) for the dialog',
  );

  const ref: CheckpointRef = { sessionId: host.sessionId, resumeId: 'step_2_auth_decision' };
  await assert.rejects(spawnAgent.resume(ref, CALL, host.context), /has not been answered yet/);
  assert.equal(checkpoints.answer(ref, 'Auth0').accepted, true);
  assert.equal((await spawnAgent.waitForAnswer(ref)).answer, 'Auth0');

  const [first, second] = await Promise.all([spawnAgent.resume(ref, CALL, host.context), spawnAgent.resume(ref, CALL, host.context)]);
  assert.equal(first.status, 'success', first.data);
  assert.equal(first.data, 'User replied: Auth0 | resume_data.user_input: Auth0 | login added');
  assert.deepEqual(second, first, 'a second resume gets the same response');
  assert.equal(spawnStarts(host), 2, 'the agent ran twice in all: the question, then one resume');
  assert.equal(readFileSync(join(host.workspace, 'auth-choice.txt'), 'utf8'), 'auth: Auth0\n');
  assert.equal(checkpoints.get(ref)?.status, 'resumed');
  assert.deepEqual(checkpoints.pending(host.sessionId), []);
});

// The issue's own numbers: a 10 s timeout and a 60 s wait at the checkpoint (six times the budget spent waiting is
// the claim). The 60 s pass on spawn_agent's clock, which the test moves on while the agent waits at the checkpoint,
// rather than in a minute of real waiting: the budget and duration_ms are measured on that clock, so a wait that
// counted would show as 60 s used of a 10 s budget (status timeout) all the same.
test('waiting at a checkpoint does not count against timeout_seconds: a 10 s budget still resumes after a 60 s wait', { timeout: 90_000 }, async (t) => {
  const host = await startSpawnHost(t);
  host.installNative('auth-setup', AUTH_AGENT);
  const { checkpoints } = host.services;
  let waited = 0;
  const spawnAgent = host.services.spawnAgent.withClock(() => Date.now() + waited);

  const raised: CheckpointRef[] = [];
  const done = spawnAgent.runThroughCheckpoints({ ...CALL, options: { timeout_seconds: 10 } }, host.context, { onCheckpoint: (ref) => raised.push(ref) });
  await waitFor(() => raised.length === 1, 'the checkpoint', 30_000);
  waited += 60_000;
  checkpoints.answer(raised[0], 'Auth0');

  const response = await done;
  assert.equal(response.status, 'success', response.data);
  assert.match(response.data, /^User replied: Auth0 \|/);
  t.diagnostic(`agent running time over both turns: ${response.metadata.duration_ms} ms (budget 10000 ms; the 60 s wait not counted)`);
  assert.ok(response.metadata.duration_ms < 60_000, `duration_ms counts the agent's running time only, not the wait: ${response.metadata.duration_ms} ms`);
  assert.equal(readFileSync(join(host.workspace, 'auth-choice.txt'), 'utf8'), 'auth: Auth0\n');
});

test('an agent that asks the same checkpoint again after its answer: status error, not a loop', { timeout: 90_000 }, async (t) => {
  const host = await startSpawnHost(t);
  // Ignores resume_data: every turn asks the same question.
  host.installNative('re-asker', AUTH_AGENT.replace('"agent_id":"auth-setup"', '"agent_id":"re-asker"').replace('*\'"resume_data":{"checkpoint_id":"step_2_auth_decision"\'*)', 'never-matches)'));
  const { spawnAgent, checkpoints } = host.services;
  const done = spawnAgent.runThroughCheckpoints({ ...CALL, agent_name: 're-asker' }, host.context, { onCheckpoint: (ref) => checkpoints.answer(ref, 'Supabase') });
  const response = await done;
  assert.equal(response.status, 'error');
  assert.match(response.data, /asked checkpoint "step_2_auth_decision" again after it was answered; a resume_id is single-use/);
  assert.equal(spawnStarts(host), 2, 'asked, resumed once, then given up');
});
