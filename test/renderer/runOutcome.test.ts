// The outcome chip's word and kind, from what the host says about a run (issue 23, item 3): every ending its own.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AgentRunInfo } from '../../src-preload/contract';
import { runOutcome } from '../../src-renderer/features/agents/runOutcome';
import { defaultAgent, launcherAgents } from '../../src-renderer/features/agents/launcherAgents';
import type { AgentInfo } from '../../src-preload/contract';

type Ending = Pick<AgentRunInfo, 'state' | 'outcome' | 'error' | 'deniedCalls' | 'grantsGiven'>;
const ended = (outcome: AgentRunInfo['outcome'], more: Partial<Ending> = {}): Ending => ({ state: 'Terminated', outcome, error: null, deniedCalls: 0, grantsGiven: 0, ...more });

test('each ending has its own kind and word', () => {
  const cases: [Ending, string, string][] = [
    [ended('completed'), 'completed', 'Completed'],
    [ended('completed', { deniedCalls: 2, grantsGiven: 1 }), 'partly-denied', 'Partly denied'],
    [ended('completed', { deniedCalls: 1 }), 'denied', 'Denied'],
    [ended('failed', { error: { code: 'capability_denied', message: 'no', hint: null } }), 'denied', 'Denied'],
    [ended('failed', { error: { code: 'trap', message: 'unreachable', hint: null } }), 'failed', 'Failed'],
    [ended('failed', { deniedCalls: 1, grantsGiven: 1, error: { code: 'trap', message: 'x', hint: null } }), 'failed', 'Failed'],
    [ended('timeout'), 'timed-out', 'Timed out'],
    [ended('stopped'), 'cancelled', 'Cancelled'],
    [ended('cpu_budget'), 'limit', 'CPU budget used up'],
    [ended('memory_limit'), 'limit', 'Out of memory'],
    [ended('interrupted'), 'interrupted', 'Interrupted'],
  ];
  for (const [info, kind, word] of cases) {
    const view = runOutcome(info);
    assert.deepEqual([view.kind, view.word], [kind, word], JSON.stringify(info));
  }
  const words = new Set(cases.map(([info]) => runOutcome(info).word));
  assert.equal(words.size, 9, 'nine words for the eleven cases: two ways to be denied, two to fail');
});

test('a live run shows its state; one the host no longer knows says so', () => {
  assert.deepEqual(runOutcome({ state: 'Active', outcome: 'running', error: null, deniedCalls: 0, grantsGiven: 0 }).word, 'Active');
  assert.deepEqual(runOutcome({ state: 'Suspended', outcome: 'running', error: null, deniedCalls: 0, grantsGiven: 0 }).word, 'Suspended');
  assert.equal(runOutcome({ state: 'Initialized', outcome: 'running', error: null, deniedCalls: 0, grantsGiven: 0 }).word, 'Starting');
  assert.equal(runOutcome(ended('completed'), true).kind, 'unavailable');
});

const agent = (name: string, capabilities: string[], more: Partial<AgentInfo> = {}): AgentInfo => ({
  name,
  version: '1.0.0',
  sandbox: 'wasm',
  capabilities,
  oauthScopes: [],
  uiHints: [],
  cpuMillicores: 500,
  memBytes: 1 << 26,
  source: 'bundled',
  folder: `/agents/${name}`,
  manifestSha256: 'x',
  warnings: [],
  description: null,
  examplePrompt: null,
  internal: false,
  ...more,
});

test('the launcher leaves internal agents out and starts on a bundled one that only reads', () => {
  const all = [agent('executor', ['files.write', 'process.exec'], { internal: true }), agent('http-check', ['network']), agent('scaffolder', ['files.write']), agent('workspace-summary', ['files.read'])];
  const offered = launcherAgents(all);
  assert.deepEqual(offered.map((a) => a.name), ['http-check', 'scaffolder', 'workspace-summary']);
  assert.equal(defaultAgent(offered)?.name, 'workspace-summary');
  assert.equal(defaultAgent([agent('http-check', ['network']), agent('mine', [], { source: 'user' })])?.name, 'http-check', 'no reader: the first bundled one');
  assert.equal(defaultAgent([agent('mine', ['network'], { source: 'user' })])?.name, 'mine');
  assert.equal(defaultAgent([]), undefined);
});
