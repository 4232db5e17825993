import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseDomainAllowlist } from '../../../src-main/node/sandbox/native/domainPattern';
import { NativeSandboxPolicyError } from '../../../src-main/node/sandbox/native/nativeSandboxErrors';

describe('network allowlist patterns', () => {
  const allow = parseDomainAllowlist(['api.github.com', '*.example.com', '203.0.113.7']);

  it('an exact name matches itself only, whatever the case or a trailing dot', () => {
    assert.equal(allow.matches('api.github.com'), true);
    assert.equal(allow.matches('API.GitHub.com.'), true);
    assert.equal(allow.matches('github.com'), false);
    assert.equal(allow.matches('evil.api.github.com'), false);
    assert.equal(allow.matches('api.github.com.evil.net'), false);
  });

  it('a wildcard matches names below the domain, not the domain itself nor look-alikes', () => {
    assert.equal(allow.matches('a.example.com'), true);
    assert.equal(allow.matches('a.b.example.com'), true);
    assert.equal(allow.matches('example.com'), false);
    assert.equal(allow.matches('badexample.com'), false);
    assert.equal(allow.matches('example.com.evil.net'), false);
  });

  it('an IP literal matches only when listed', () => {
    assert.equal(allow.matches('203.0.113.7'), true);
    assert.equal(allow.matches('203.0.113.8'), false);
  });

  it('anything that is not a host pattern is refused with the field named', () => {
    for (const bad of ['https://example.com', 'example.com:443', 'example.com/path', '*', '*.com', 'ex ample.com', '-bad.com', 'a..b']) {
      assert.throws(() => parseDomainAllowlist([bad]), (error: unknown) => error instanceof NativeSandboxPolicyError && error.field === 'network.allowDomains', bad);
    }
  });
});
