// spawn_agent's errors, through the real host: what the caller got wrong throws a typed error naming it (and nothing
// runs); what the agent got wrong (a checkpoint the host cannot show, a crash, a halt) is status "error" with a
// message that says why.
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { test } from 'node:test';
import { ResumeDataError, SpawnAgentInputError, UnknownAgentError } from '../../../src-main/node/goal/metaShell/spawnAgentErrors';
import { waitFor } from '../../helpers';
import { startSpawnHost } from './fixtures/spawnHost';

/** An agent whose output is whatever the test put in its script (a JSON string literal, escaped for sh). */
const says = (agent: string, data: string): string => `#!/bin/sh
read -r input
printf '%s\\n' '${JSON.stringify({ schema_version: '0.1', type: 'output', agent_id: agent, chunk_id: 'main', content_type: 'text/plain', data })}'
`;

test('spawn_agent errors', { timeout: 120_000 }, async (t) => {
  const host = await startSpawnHost(t);
  const { spawnAgent, checkpoints, ledger } = host.services;
  const starts = (): number => ledger.list({ sessionId: host.sessionId, limit: 500 }).filter((entry) => entry.type === 'host.spawn_start').length;
  host.installNative('known', says('known', 'fine'));

  await t.test('an unknown agent name: UnknownAgentError naming it and the installed agents; nothing runs', async () => {
    await assert.rejects(spawnAgent.spawn('no-such-agent', '', 'hello', {}, host.context), (error: unknown) => {
      assert.ok(error instanceof UnknownAgentError);
      assert.equal(error.agentName, 'no-such-agent');
      assert.ok(error.installed.includes('known'), error.installed.join(', '));
      assert.match(error.message, /no agent named "no-such-agent" is installed \(installed agents: .*"known"/);
      return true;
    });
    assert.equal(starts(), 0);
  });

  await t.test('malformed arguments: SpawnAgentInputError naming the field; nothing runs', async () => {
    const field = async (run: () => Promise<unknown>): Promise<string> => {
      try {
        await run();
      } catch (error) {
        assert.ok(error instanceof SpawnAgentInputError, String(error));
        return `${error.field}: ${error.message}`;
      }
      return assert.fail('no error');
    };
    assert.match(await field(() => spawnAgent.spawn('known', '', 'x', { timeout_seconds: -1 }, host.context)), /^options\.timeout_seconds: .*positive number of seconds, got -1/);
    assert.match(await field(() => spawnAgent.spawn('known', '', 'x', { timeout_seconds: 600_000 }, host.context)), /^options\.timeout_seconds: .*seconds, not milliseconds/);
    assert.match(await field(() => spawnAgent.spawn('known', '', 'x', { model_hint: 'medium' as 'fast' }, host.context)), /^options\.model_hint: .*"fast" or "smart", got "medium"/);
    assert.match(await field(() => spawnAgent.spawn('known', '', 'x', { max_tokens: 1.5 }, host.context)), /^options\.max_tokens: /);
    assert.match(await field(() => spawnAgent.spawn('  ', '', 'x', {}, host.context)), /^agent_name: .*must not be empty/);
    assert.match(await field(() => spawnAgent.spawn('known', '', 'x', { resume_data: { checkpoint_id: '', user_input: 'a' } }, host.context)), /^options\.resume_data\.checkpoint_id: /);
    assert.equal(starts(), 0);
  });

  await t.test('resume_data for a checkpoint never raised: ResumeDataError', async () => {
    await assert.rejects(spawnAgent.spawn('known', '', 'x', { resume_data: { checkpoint_id: 'step_9', user_input: 'a' } }, host.context), (error: unknown) => {
      assert.ok(error instanceof ResumeDataError);
      assert.match(error.message, /"step_9" was never raised in session/);
      return true;
    });
  });

  await t.test('a checkpoint that breaks the schema: status error naming the fields, nothing pending', async () => {
    host.installNative('bad-asker', says('bad-asker', JSON.stringify({ type: 'checkpoint', reason: 'decision_required', message: 'Which one?', options: [], resume_id: 'step 2!' })));
    const response = await spawnAgent.spawn('bad-asker', '', 'ask me', { timeout_seconds: 30 }, host.context);
    assert.equal(response.status, 'error');
    assert.match(response.data, /^"bad-asker" sent a checkpoint the host cannot show: checkpoint signal: /);
    assert.match(response.data, /options/);
    assert.match(response.data, /resume_id/);
    t.diagnostic(response.data);
    assert.deepEqual(checkpoints.pending(host.sessionId), []);
  });

  await t.test('a checkpoint that is not even JSON: status error saying so', async () => {
    host.installNative('broken-asker', says('broken-asker', '{"type": "checkpoint", "reason": "human_action", "message": "Create the app'));
    const response = await spawnAgent.spawn('broken-asker', '', 'ask me', { timeout_seconds: 30 }, host.context);
    assert.equal(response.status, 'error');
    assert.match(response.data, /checkpoint signal: field "\(root\)" is not JSON \(Unterminated string/);
  });

  await t.test('an agent that fails: status error with its exit code and its log; the ledger and progress copies are scrubbed', async () => {
    // A token-shaped string in the agent's log: it reaches the caller as the agent said it, but not the ledger or the UI.
    const token = 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB';
    host.installNative('crasher', `#!/bin/sh\nread -r input\necho "config missing, tried ${token}" >&2\nexit 3\n`);
    const progress: string[] = [];
    const listening = host.services.progress.onDidLog((entry) => progress.push(entry.message));
    const response = await spawnAgent.spawn('crasher', '', 'go', { timeout_seconds: 30 }, host.context);
    listening.dispose();
    assert.equal(response.status, 'error');
    assert.match(response.data, /^"crasher" failed \(crashed\): the agent's program ended with code 3: config missing/);
    ledger.flush();
    const end = ledger.list({ sessionId: host.sessionId, limit: 500 }).find((entry) => entry.type === 'host.spawn_end' && (entry.payload as { agent?: string }).agent === 'crasher');
    const reason = (end?.payload as { reason?: string } | undefined)?.reason ?? '';
    assert.match(reason, /config missing, tried \[REDACTED:github-token\]/);
    assert.ok(progress.length === 2 && progress.every((line) => !line.includes(token)), progress.join('\n'));
    assert.match(progress[1], /\[REDACTED:github-token\]/);
  });

  await t.test("halted by the caller's signal: status error, the agent's processes end", async () => {
    const marker = `700.${randomInt(100_000, 999_999)}`;
    host.installNative('sleeper', `#!/bin/sh\nread -r input\nsleep ${marker}\n`);
    const halt = new AbortController();
    const response = spawnAgent.spawn('sleeper', '', 'sleep', { timeout_seconds: 300 }, { ...host.context, actor: 'user', signal: halt.signal });
    await waitFor(() => host.processesWith(marker).length > 0, 'the agent sleeping', 30_000);
    halt.abort();
    const halted = await response;
    assert.equal(halted.status, 'error');
    assert.match(halted.data, /^"sleeper" was halted by user/);
    await waitFor(() => host.processesWith(marker).length === 0, 'the agent gone', 7000);
  });
});
