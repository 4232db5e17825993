// What the agent's updates change on a conversation's record (mode, usage and cost, models), and what a stored
// record shows once no agent runs for it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SessionNotification } from '@agentclientprotocol/sdk';
import type { AcpConversation } from '../../src-preload/contract';
import { modelsOf, notRunning, stateChangeOf } from '../../src-main/node/acp/acpSessionState';

const record: AcpConversation = {
  id: 'acp_0123456789abcdef',
  sessionId: 'ses_0123456789abcdef',
  agentId: 'fake',
  agentName: 'Fake',
  continuation: { provider: 'acp:fake', key: 'k1' },
  workspace: '/w',
  status: 'ready',
  statusReason: null,
  errorCode: null,
  modes: { currentModeId: 'ask', available: [{ id: 'ask', name: 'Ask', description: null }, { id: 'code', name: 'Code', description: null }] },
  models: null,
  usage: null,
  resumable: true,
  sandboxed: true,
  createdAt: 1,
  updatedAt: 1,
};
const update = (fields: Record<string, unknown>) => fields as unknown as SessionNotification['update'];

test('a mode update, a usage update with and without a well-formed cost, and a model option change the record', () => {
  assert.equal(stateChangeOf(record, update({ sessionUpdate: 'current_mode_update', currentModeId: 'code' }))?.modes?.currentModeId, 'code');
  assert.deepEqual(stateChangeOf(record, update({ sessionUpdate: 'usage_update', used: 10, size: 100, cost: { amount: 0.5, currency: 'USD' } })), { usage: { used: 10, size: 100, cost: { amount: 0.5, currency: 'USD' } } });
  assert.deepEqual(stateChangeOf(record, update({ sessionUpdate: 'usage_update', used: 10, size: 100, cost: { amount: '0.5' } })), { usage: { used: 10, size: 100, cost: null } });
  const models = [{ id: 'model', name: 'Model', type: 'select', currentValue: 'b', options: [{ value: 'a', name: 'A' }, { group: 'g', name: 'G', options: [{ value: 'b', name: 'B' }] }] }];
  assert.deepEqual(stateChangeOf(record, update({ sessionUpdate: 'config_option_update', configOptions: models }))?.models, { configId: 'model', current: 'b', available: [{ value: 'a', name: 'A' }, { value: 'b', name: 'B' }] });
});

test('malformed or unrelated updates change nothing', () => {
  assert.equal(stateChangeOf(record, update({ sessionUpdate: 'usage_update', used: 'many', size: 100 })), null);
  assert.equal(stateChangeOf(record, update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } })), null);
  assert.equal(stateChangeOf({ ...record, modes: null }, update({ sessionUpdate: 'current_mode_update', currentModeId: 'code' })), null);
  assert.equal(modelsOf([{ id: 'model', name: 'Model', type: 'boolean' } as never]), null);
});

test('a record left ready or prompting by a host that ended shows stopped (Resume, not a prompt); stopped and failed stay', () => {
  for (const status of ['ready', 'prompting', 'starting'] as const) {
    const shown = notRunning({ ...record, status });
    assert.equal(shown.status, 'stopped');
    assert.match(shown.statusReason ?? '', /host ended/);
  }
  const failed = { ...record, status: 'failed' as const, statusReason: 'crashed', errorCode: 'ACP_AGENT_CRASHED' };
  assert.deepEqual(notRunning(failed), failed);
  assert.deepEqual(notRunning({ ...record, status: 'stopped' }).statusReason, null);
});
