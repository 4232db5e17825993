import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseWorkerMessage, WorkerMessageError } from '../../src-main/node/base/workerMessage';
import { RangeWorkerMessage } from '../../src-main/node/ledger/rangeWorkerMessage';

const parse = (message: unknown) => parseWorkerMessage(RangeWorkerMessage, message, 'a ledger verify thread');

test("a verify thread's answer is checked at the thread boundary: a verdict or an error passes, anything else is refused by field", () => {
  const intact = { verdict: { intact: true, size: 10, headHash: 'a'.repeat(64), redacted: 0, elided: 0 } };
  assert.deepEqual(parse(intact), intact);
  assert.deepEqual(parse({ error: 'disk I/O error' }), { error: 'disk I/O error' });
  const bad: [unknown, RegExp][] = [
    [{ verdict: { intact: true, size: 10, headHash: 'not hex', redacted: 0, elided: 0 } }, /verdict\.headHash/],
    [{ verdict: { intact: 'yes' } }, /verdict\.intact/],
    [{ verdict: { intact: false, size: -1, firstBadSeq: 0, reason: 'x' } }, /verdict\.size|verdict\.firstBadSeq/],
    [{ verdict: intact.verdict, extra: 1 }, /extra|Unrecognized/i],
    [null, /\(message\)/],
    ['intact', /\(message\)/],
  ];
  for (const [message, field] of bad) {
    assert.throws(() => parse(message), (error: unknown) => error instanceof WorkerMessageError && /a ledger verify thread sent a message the host does not understand/.test(error.message) && field.test(error.message), JSON.stringify(message));
  }
});
