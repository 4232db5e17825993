import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CapabilityDeniedError } from '../../src-main/node/consent/consentErrors';
import { AGENT, openConsent, ScriptedChannel, SESSION } from './consentFixture';

const base = { agentId: AGENT, sessionId: SESSION };

test('default deny: nothing is allowed without a grant, and the denial is a typed capability_denied', (t) => {
  const f = openConsent(t);
  for (const capability of ['files.read', 'files.write', 'network', 'media.preview', 'codegen', 'memory', 'process.exec', 'oauth:github.repo']) {
    const target = capability === 'network' ? 'api.github.com' : capability.startsWith('files') ? 'README.md' : undefined;
    const use = { ...base, capability, target, method: 'GET', action: capability === 'process.exec' ? 'ls' : undefined };
    assert.equal(f.engine.check(use).decision, 'deny', capability);
    assert.throws(() => f.engine.authorize(use), (e: unknown) => e instanceof CapabilityDeniedError && e.code === 'capability_denied');
  }
});

test('a deny rule of the user beats a live grant, for every agent or one; removing it restores the grant', (t) => {
  const f = openConsent(t);
  f.engine.grant({ ...base, capability: 'files.read', scope: '**', durationS: 600 }, 'user');
  const secret = { ...base, capability: 'files.read', target: 'secrets/api.key' };
  assert.equal(f.engine.check(secret).decision, 'allow');
  const rule = f.engine.addRule({ effect: 'deny', capability: 'files.read', scope: 'secrets/**' }, 'user');
  const denied = f.engine.check(secret);
  assert.equal(denied.code, 'denied_by_rule');
  // Case does not dodge a rule (a case-insensitive file system opens the same file).
  assert.equal(f.engine.check({ ...secret, target: 'SECRETS/api.key' }).code, 'denied_by_rule');
  assert.equal(f.engine.check({ ...base, capability: 'files.read', target: 'src/a.ts' }).decision, 'allow', 'the rule is scoped');
  assert.throws(() => f.engine.authorize(secret), (e: unknown) => e instanceof CapabilityDeniedError && /the user forbids this/.test(e.hint));
  assert.equal(f.engine.removeRule(rule.id, 'user'), true);
  assert.equal(f.engine.check(secret).decision, 'allow');
  assert.deepEqual(f.entries('consent.rule').map((e) => e.payload.ruleId), [rule.id, rule.id]);
});

test('a deny rule answers a request without asking the user', async (t) => {
  const f = openConsent(t);
  const channel = new ScriptedChannel(() => ({ kind: 'allow_for', minutes: 10 }));
  f.engine.attachChannel(channel);
  f.engine.addRule({ effect: 'deny', agentId: AGENT, capability: 'network', scope: '*.tracker.example' }, 'user');
  assert.equal(await f.engine.request({ ...base, capability: 'network', target: 'eu.tracker.example', method: 'GET', reason: 'telemetry', durationS: 60 }), 'deny');
  assert.equal(channel.prompts.length, 0);
  assert.equal(f.entries('consent.deny').at(-1)?.payload.code, 'denied_by_rule');
});

test('an ask rule beats a capability-wide grant: each use needs the user\'s answer for exactly that action', async (t) => {
  const f = openConsent(t);
  f.engine.grant({ ...base, capability: 'files.write', scope: '**', durationS: 600 }, 'user');
  f.engine.addRule({ effect: 'ask', capability: 'files.write', scope: 'package.json' }, 'user');
  const pkg = { ...base, capability: 'files.write', target: 'package.json' };
  assert.equal(f.engine.check(pkg).code, 'needs_prompt');
  assert.equal(f.engine.check({ ...pkg, target: 'src/a.ts' }).decision, 'allow');
  const channel = new ScriptedChannel(() => ({ kind: 'allow_once' }));
  f.engine.attachChannel(channel);
  assert.equal(await f.engine.request({ ...pkg, reason: 'add a script', durationS: 60 }), 'allow');
  assert.equal(channel.prompts[0].action, 'package.json');
  assert.equal(f.engine.check(pkg).decision, 'allow');
  assert.equal(f.engine.check(pkg).code, 'needs_prompt', 'the once-grant was spent');
});

test('sensitive actions: a domain grant covers GET but a POST needs a grant for exactly that POST', async (t) => {
  const f = openConsent(t);
  f.engine.grant({ ...base, capability: 'network', scope: 'api.example.org', durationS: 600 }, 'user');
  const get = { ...base, capability: 'network', target: 'https://api.example.org/items', method: 'GET' };
  assert.equal(f.engine.check(get).decision, 'allow');
  assert.equal(f.engine.check({ ...get, method: 'head' }).decision, 'allow');
  const post = { ...get, method: 'POST', action: 'https://api.example.org/items' };
  assert.equal(f.engine.check(post).code, 'needs_prompt');
  assert.equal(f.engine.check({ ...get, method: undefined }).code, 'needs_prompt', 'no method is treated as a write');

  const channel = new ScriptedChannel(() => ({ kind: 'allow_for', minutes: 5 }));
  f.engine.attachChannel(channel);
  assert.equal(await f.engine.request({ ...post, reason: 'create the issue', durationS: 300 }), 'allow');
  assert.equal(channel.prompts[0].sensitive, true);
  assert.equal(channel.prompts[0].action, 'POST https://api.example.org/items');
  assert.equal(f.engine.check(post).decision, 'allow');
  assert.equal(f.engine.check({ ...post, action: 'https://api.example.org/items/1' }).code, 'needs_prompt', 'another URL is another action');
  assert.equal(f.engine.check({ ...post, method: 'DELETE' }).code, 'needs_prompt', 'another method is another action');
});

test('process.exec is asked per command line, never covered by a capability-wide grant', (t) => {
  const f = openConsent(t);
  f.engine.grant({ ...base, capability: 'process.exec', durationS: 600 }, 'user');
  assert.equal(f.engine.check({ ...base, capability: 'process.exec', action: 'npm test' }).code, 'needs_prompt');
  f.engine.grant({ ...base, capability: 'process.exec', action: 'npm test', durationS: 600 }, 'user');
  assert.equal(f.engine.check({ ...base, capability: 'process.exec', action: 'npm test' }).decision, 'allow');
  assert.equal(f.engine.check({ ...base, capability: 'process.exec', action: 'npm test; rm -rf ~' }).code, 'needs_prompt');
});

test('grants belong to one agent in one session', (t) => {
  const f = openConsent(t);
  f.engine.grant({ ...base, capability: 'memory', durationS: 600 }, 'user');
  assert.equal(f.engine.check({ ...base, capability: 'memory' }).decision, 'allow');
  assert.equal(f.engine.check({ ...base, agentId: 'other-agent', capability: 'memory' }).decision, 'deny');
  assert.equal(f.engine.check({ ...base, sessionId: 'ses_anotherSession', capability: 'memory' }).decision, 'deny');
  assert.equal(f.engine.check({ ...base, capability: 'codegen' }).decision, 'deny');
});

test('asking for network without a method asks for the domain: the grant covers reads there, never writes', async (t) => {
  const f = openConsent(t);
  const channel = new ScriptedChannel(() => ({ kind: 'allow_for', minutes: 10 }));
  f.engine.attachChannel(channel);
  const outcome = await f.engine.ask({ ...base, capability: 'network', target: 'api.example.org', reason: 'read the docs', durationS: 600 });
  assert.equal(outcome.grant?.scope, 'api.example.org');
  assert.equal(outcome.grant?.action, null);
  assert.equal(channel.prompts[0].sensitive, false);
  const url = 'https://api.example.org/docs';
  assert.equal(f.engine.check({ ...base, capability: 'network', target: 'api.example.org', method: 'GET', action: `GET ${url}` }).decision, 'allow');
  assert.equal(f.engine.check({ ...base, capability: 'network', target: 'api.example.org', method: 'PUT', action: `PUT ${url}` }).code, 'needs_prompt');
  assert.equal(f.engine.check({ ...base, capability: 'network', target: 'api.example.org' }).code, 'needs_prompt', 'a use without a method is a write');
});

test('a network action names the same action whether given as the URL or as "METHOD URL"', (t) => {
  const f = openConsent(t);
  const url = 'https://api.example.org/items';
  f.engine.grant({ ...base, capability: 'network', scope: 'api.example.org', action: `POST ${url}`, durationS: 600 }, 'user');
  assert.equal(f.engine.check({ ...base, capability: 'network', target: 'api.example.org', method: 'POST', action: url }).decision, 'allow');
  assert.equal(f.engine.check({ ...base, capability: 'network', target: 'api.example.org', method: 'post', action: `POST ${url}` }).decision, 'allow');
  assert.equal(f.engine.check({ ...base, capability: 'network', target: 'api.example.org', method: 'POST', action: `PUT ${url}` }).code, 'needs_prompt');
});
