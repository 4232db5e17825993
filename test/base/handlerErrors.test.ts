import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ErrorCode, RpcError } from '../../src-preload/contract/errors';
import { DomainError, ERROR_KINDS } from '../../src-main/node/base/domainError';
import { CODE_OF_KIND, toRpcError } from '../../src-main/node/handlerErrors';

const noInternal = (): never => assert.fail('a DomainError is not internal');

test('every kind maps to a contract code, and keeps its message, issues and reference', () => {
  assert.deepEqual(Object.keys(CODE_OF_KIND).sort(), [...ERROR_KINDS].sort());
  for (const kind of ERROR_KINDS) {
    assert.ok(ErrorCode.options.includes(CODE_OF_KIND[kind]), kind);
    const error = toRpcError('probe.call', new DomainError(kind, 'what was wrong; how to fix it', { issues: [{ path: 'a', message: 'b' }] }), noInternal);
    assert.deepEqual(error.toBody(), { code: CODE_OF_KIND[kind], message: 'what was wrong; how to fix it', issues: [{ path: 'a', message: 'b' }] });
  }
  assert.equal(toRpcError('probe.call', new DomainError('unavailable', 'install it', { reference: 'HARNESS_CLI_MISSING' }), noInternal).message, 'install it [HARNESS_CLI_MISSING]');
});

test('an unknown Error at the edge is INTERNAL, without its message, and goes to the host log', () => {
  const reported: [string, unknown][] = [];
  const secret = new Error('ENOENT: /home/someone/.private/thing');
  const error = toRpcError('probe.call', secret, (method, e) => reported.push([method, e]));
  assert.equal(error.code, 'INTERNAL');
  assert.ok(!error.message.includes('private'), error.message);
  assert.match(error.message, /host log says why/);
  assert.deepEqual(reported, [['probe.call', secret]]);
  // The bridge's own typed errors pass as they are.
  const bridge = new RpcError('OVERFLOW', 'fell behind');
  assert.equal(toRpcError('probe.call', bridge, noInternal), bridge);
});
