import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { AcpAgentRegistry } from '../../src-main/node/acp/acpAgentRegistry';
import { AcpError } from '../../src-main/node/acp/acpError';
import { installAcpAgent } from '../../src-main/node/acp/acpInstaller';

const home = () => mkdtempSync(join(tmpdir(), 'acp-registry-'));

test('built-ins are listed without a file; a missing program is ACP_AGENT_MISSING saying how to install', () => {
  const registry = new AcpAgentRegistry({ home: home(), path: '' });
  const { agents, problems } = registry.list();
  assert.deepEqual(agents.map((a) => a.entry.id), ['claude', 'codex', 'gemini']);
  assert.deepEqual(problems, []);
  assert.equal(agents[0].installable, true);
  assert.throws(() => registry.resolved('claude'), (e: unknown) => e instanceof AcpError && e.code === 'ACP_AGENT_MISSING' && /install it from the agents list/.test(e.message));
  assert.throws(() => registry.get('nope'), (e: unknown) => e instanceof AcpError && e.code === 'ACP_UNKNOWN_AGENT');
});

test('user entries are added; the in-app install folder is searched', () => {
  const h = home();
  writeFileSync(join(h, 'acp-agents.json'), JSON.stringify({ schema_version: 1, agents: [{ id: 'mine', command: '/bin/cat', args: ['-u'] }] }));
  const bin = join(h, 'acp-agents', 'node_modules', '.bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'codex-acp'), '#!/bin/sh\n');
  chmodSync(join(bin, 'codex-acp'), 0o755);
  const registry = new AcpAgentRegistry({ home: h, path: '' });
  const mine = registry.resolved('mine');
  assert.equal(mine.command, '/bin/cat');
  assert.deepEqual(mine.args, ['-u']);
  assert.equal(mine.source, 'user');
  assert.equal(registry.resolved('codex').command, join(bin, 'codex-acp'));
});

test('a bad file names the field, what was expected and how to fix it; the built-ins still work', () => {
  const h = home();
  writeFileSync(join(h, 'acp-agents.json'), JSON.stringify({ schema_version: 2, agents: [{ id: 'Bad Id', command: '' }] }));
  const { agents, problems } = new AcpAgentRegistry({ home: h, path: '' }).list();
  assert.deepEqual(agents.map((a) => a.entry.id), ['claude', 'codex', 'gemini']);
  assert.ok(problems.some((p) => /schema_version: schema_version must be 1/.test(p)), problems.join('\n'));
  assert.ok(problems.some((p) => /agents\.0\.id: an id of 1 to 64 lowercase/.test(p)), problems.join('\n'));
  assert.ok(problems.some((p) => /agents\.0\.command: the program to run/.test(p)), problems.join('\n'));
  assert.ok(problems.every((p) => /fix that field/.test(p)));
  writeFileSync(join(h, 'acp-agents.json'), '{ not json');
  const broken = new AcpAgentRegistry({ home: h, path: '' }).list();
  assert.equal(broken.agents.length, 3);
  assert.match(broken.problems[0], /not valid JSON/);
});

test('the in-app install reports an unreachable registry as ACP_INSTALL_OFFLINE', async () => {
  const h = home();
  // A stand-in npm that fails the way npm does offline.
  const npm = join(h, 'fake-npm');
  writeFileSync(npm, '#!/bin/sh\necho "npm error code ENOTFOUND" >&2\necho "npm error network request to https://registry.npmjs.org/x failed" >&2\nexit 1\n');
  chmodSync(npm, 0o755);
  const registry = new AcpAgentRegistry({ home: h, path: '' });
  const progress: string[] = [];
  await assert.rejects(
    installAcpAgent(h, registry.get('claude'), (p) => progress.push(p.kind), { npm }),
    (e: unknown) => e instanceof AcpError && e.code === 'ACP_INSTALL_OFFLINE' && /could not be reached/.test(e.message),
  );
  assert.deepEqual(progress.slice(0, 2), ['started', 'output']);
  // A user's own agent has no package to install: the app says to put it on PATH.
  const own = { id: 'own', name: 'Own', command: 'own-agent', args: [], env: {}, source: 'user' as const };
  await assert.rejects(installAcpAgent(h, own, () => {}), (e: unknown) => e instanceof AcpError && e.code === 'ACP_NOT_INSTALLABLE');
});
