import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AGENT, openConsent, SESSION } from './consentFixture';

const base = { agentId: AGENT, sessionId: SESSION };

test('a path grant covers its folder and nothing that only looks like it', (t) => {
  const f = openConsent(t);
  f.engine.grant({ ...base, capability: 'files.read', scope: 'src/**', durationS: 600 }, 'user');
  const read = (target: string) => f.engine.check({ ...base, capability: 'files.read', target });
  for (const inside of ['src/a.ts', 'src/deep/er/b.ts', './src//c.ts', 'src\\win\\d.ts', 'src/...', 'src/..hidden', 'src/%41.ts']) {
    assert.equal(read(inside).decision, 'allow', inside);
  }
  const attacks: [string, RegExp][] = [
    ['../outside.txt', /contains "\.\."/],
    ['src/../../etc/passwd', /contains "\.\."/],
    ['src/../secrets/key', /contains "\.\."/],
    ['src/link/../../x', /contains "\.\."/],
    ['src\\..\\..\\etc\\passwd', /contains "\.\."/],
    ['src/%2e%2e/%2e%2e/etc/passwd', /percent-encoded/],
    ['src%2f..%2fsecrets', /percent-encoded/],
    ['src/%2E%2E%5csecrets', /percent-encoded/],
    ['/etc/passwd', /absolute/],
    ['C:\\Windows\\system.ini', /absolute/],
    ['src/a.ts\0.png', /NUL/],
    ['srcs/a.ts', /no live grant/],
    ['src.ts', /no live grant/],
    ['x/src/a.ts', /no live grant/],
    ['SRC/a.ts', /no live grant/],
    ['', /no live grant/],
  ];
  for (const [target, reason] of attacks) {
    const result = read(target);
    assert.equal(result.decision, 'deny', target);
    assert.match(result.reason, reason, target);
  }
});

test('a file grant made from a target names only that file, even when its name has wildcards in it', (t) => {
  const f = openConsent(t);
  const grant = f.engine.grant({ ...base, capability: 'files.write', scope: 'notes/a\\*b.md', durationS: 600 }, 'user');
  assert.equal(grant.scope, 'notes/a\\*b.md');
  assert.equal(f.engine.check({ ...base, capability: 'files.write', target: 'notes/a*b.md' }).decision, 'allow');
  assert.equal(f.engine.check({ ...base, capability: 'files.write', target: 'notes/aXXb.md' }).decision, 'deny');
});

test('grant scopes that would leave the workspace are refused when granted', (t) => {
  const f = openConsent(t);
  for (const scope of ['../**', '/etc/**', 'src/../../**', '%2e%2e/**', 'a**b', '']) {
    assert.throws(() => f.engine.grant({ ...base, capability: 'files.read', scope, durationS: 60 }, 'user'), RangeError, scope);
  }
});

test('domain patterns match exactly or at a label boundary, case-insensitively, after IDNA and trailing-dot normalisation', (t) => {
  const f = openConsent(t);
  f.engine.grant({ ...base, capability: 'network', scope: 'example.org', durationS: 600 }, 'user');
  f.engine.grant({ ...base, capability: 'network', scope: '*.GitHub.com.', durationS: 600 }, 'user');
  const get = (target: string) => f.engine.check({ ...base, capability: 'network', target, method: 'GET' }).decision;
  for (const allowed of ['example.org', 'EXAMPLE.ORG', 'example.org.', 'https://example.org/path?q=1', 'api.github.com', 'a.b.github.com', 'API.GITHUB.COM.', 'example．org']) {
    assert.equal(get(allowed), 'allow', allowed);
  }
  for (const denied of [
    'evil.com.example.org', // under example.org, but the grant is for example.org exactly
    'example.org.evil.com',
    'evilexample.org',
    'notgithub.com',
    'github.com', // "*." means subdomains only
    'github.com.evil.net',
    'exаmple.org', // Cyrillic "а": another host after IDNA
    'https://example.org@evil.com/', // the real host is evil.com
    'example.org:8080',
    'example.org..',
    'example.org/../evil.com',
    '127.0.0.1',
  ]) {
    assert.equal(get(denied), 'deny', denied);
  }
});

test('domain patterns that are too broad or malformed are refused when granted', (t) => {
  const f = openConsent(t);
  for (const scope of ['*', '*.com', '*.', 'ex*ample.org', 'https://example.org/', 'a..b', '*.127.0.0.1']) {
    assert.throws(() => f.engine.grant({ ...base, capability: 'network', scope, durationS: 60 }, 'user'), RangeError, scope);
  }
  assert.throws(() => f.engine.grant({ ...base, capability: 'network', scope: null, durationS: 60 }, 'user'), /needs a domain pattern/);
});
