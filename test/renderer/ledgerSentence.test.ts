// The ledger view's "What happened" column: one plain sentence per entry, for every type the host writes.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { AGENT_REGISTER } from '../../src-main/node/agents/registry/registrationRecords';
import { actorName, capabilityWords, durationWords, hasSentenceFor, ledgerSentence, type SentenceEntry } from '../../src-renderer/features/ledger/ledgerSentence';

const root = join(__dirname, '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((item) => {
    const path = join(dir, item.name);
    return item.isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/**
 * Every entry type the host appends to the ledger, read from its source: the quoted dotted names in a `type:` field
 * (`type: 'x.y'`, `type: c ? 'a.b' : 'c.d'`) of files that deal with the ledger, plus the registry's constant.
 */
function hostEntryTypes(): Set<string> {
  const types = new Set<string>([AGENT_REGISTER]);
  for (const file of sourceFiles(join(root, 'src-main'))) {
    const text = readFileSync(file, 'utf8');
    if (!/ledger|audit/i.test(text)) continue;
    for (const field of text.matchAll(/\btype:\s*([^\n]*?)(?:,\s*actor\b|,?\s*$)/gm)) {
      for (const name of field[1].matchAll(/'([a-z]+\.[a-z_.]+)'/g)) types.add(name[1]);
    }
  }
  return types;
}

const entry = (type: string, actor: string, payload: Record<string, unknown>, sessionId: string | null = 'ses_1'): SentenceEntry => ({ type, actor, sessionId, payload });
const inWs = (id: string | null): string | null => (id === 'ses_1' ? '/ws' : null);

test('every type the host writes has its own sentence (a new type fails here until it gets words)', () => {
  const types = hostEntryTypes();
  assert.ok(types.size > 60, `found only ${types.size} types: the source scan is broken`);
  for (const must of ['consent.grant', 'consent.revoke', 'consent.expire', 'meta.context_edit', 'changes.reject', 'agent.suspend']) assert.ok(types.has(must), must);
  const missing = [...types].filter((type) => !hasSentenceFor(type));
  assert.deepEqual(missing, []);
});

test('every type the host writes reads as a sentence even with an empty or odd payload (older entries, other hosts)', () => {
  for (const type of hostEntryTypes()) {
    for (const payload of [{}, { path: 3, tasks: 'x', argv: null, durationS: 'soon' }]) {
      const text = ledgerSentence(entry(type, 'user', payload), inWs);
      assert.match(text, /^\S/, type);
      assert.doesNotMatch(text, /undefined|\[object Object\]|NaN/, `${type}: ${text}`);
    }
  }
});

test('consent entries say who may do what, for how long, and who took it back', () => {
  const grant = { grantId: 'g1', agentId: 'workspace-summary', capability: 'files.read', scope: '**', action: null };
  assert.equal(ledgerSentence(entry('consent.grant', 'user', { ...grant, once: false, durationS: 600 }), inWs), 'workspace-summary was allowed to read all files in /ws for 10 minutes');
  assert.equal(ledgerSentence(entry('consent.grant', 'user', { ...grant, once: true, durationS: 30 }), inWs), 'workspace-summary was allowed to read all files in /ws once');
  assert.equal(ledgerSentence(entry('consent.revoke', 'user', { ...grant, reason: 'revoked' }), inWs), "You revoked workspace-summary's permission to read all files in /ws");
  assert.equal(ledgerSentence(entry('consent.expire', 'host', { ...grant, durationS: 3600 }), inWs), "workspace-summary's permission to read all files in /ws ended after 1 hour");
  assert.equal(
    ledgerSentence(entry('consent.request', 'notes', { capability: 'files.write', scope: 'docs/**', reason: 'to save the summary', target: 'docs/a.md', action: null }), inWs),
    'notes asked to write all files in /ws/docs/: to save the summary',
  );
  assert.equal(ledgerSentence(entry('consent.deny', 'http-check', { capability: 'network', target: '127.0.0.1', scope: null, action: null, code: 'blocked', reason: 'a loopback address' }), inWs), 'http-check was not allowed to reach 127.0.0.1: a loopback address');
  assert.equal(ledgerSentence(entry('consent.rule', 'user', { ruleId: 'r1', effect: 'allow', agentId: null, capability: 'memory', scope: null }), inWs), 'You set a standing rule: always allow every agent to use its own saved memory');
  assert.equal(ledgerSentence(entry('consent.rule', 'user', { ruleId: 'r1', removed: true }), inWs), 'You removed the standing rule r1');
});

test('sessions, terminals, agents and the host read as what a person saw happen', () => {
  assert.equal(ledgerSentence(entry('session.create', 'user', { name: 'Audited', workspace: '/home/ana/audited' })), 'You created session "Audited" in /home/ana/audited');
  assert.equal(ledgerSentence(entry('terminal.open', 'user', { terminalId: 't1', shell: '/bin/bash', cwd: '/ws', pid: 4 })), 'You opened a terminal (/bin/bash) in /ws');
  assert.equal(ledgerSentence(entry('terminal.exit', 'host', { terminalId: 't1', exitCode: 0 })), "A terminal's shell exited with code 0");
  assert.equal(ledgerSentence(entry('agent.file_write', 'agent:scaffolder', { path: 'src/a.ts', bytes: 120, created: true })), 'scaffolder created src/a.ts (120 bytes)');
  assert.equal(ledgerSentence(entry('exec.spawn', 'agent:builder', { run_id: 'r', argv: ['npm', 'test'], cwd: '/ws' })), 'builder ran npm test in /ws');
  assert.equal(ledgerSentence(entry('host.start', 'host', { version: '1.2.0', pid: 9 })), 'The host started (version 1.2.0)');
  assert.equal(ledgerSentence(entry('goal.plan', 'host', { planner: 'deterministic', tasks: [{}, {}] })), 'The deterministic planner planned 2 tasks');
});

test('a type no rule knows still reads as a sentence naming who and what', () => {
  assert.equal(ledgerSentence(entry('test.entry_kind', 'agent:x', { i: 1 })), 'x recorded test entry kind');
});

test('actors, durations and capabilities in words', () => {
  assert.equal(actorName('user'), 'You');
  assert.equal(actorName('host'), 'The host');
  assert.equal(actorName('agent:notes'), 'notes');
  assert.equal(actorName('workspace-summary'), 'workspace-summary');
  assert.equal(durationWords(45), '45 seconds');
  assert.equal(durationWords(60), '1 minute');
  assert.equal(durationWords(5400), '1 hour 30 minutes');
  assert.equal(durationWords(86_400), '1 day');
  assert.equal(capabilityWords('files.read', 'notes.md', null, '/ws'), 'read /ws/notes.md');
  assert.equal(capabilityWords('files.write', 'src/*.ts', null, '/ws'), 'write files matching src/*.ts in /ws');
  assert.equal(capabilityWords('process.exec', null, 'npm test', '/ws'), 'run npm test');
  assert.equal(capabilityWords('oauth:github', 'repo', null, null), 'use your github connection');
});
