import assert from 'node:assert/strict';
import { DomainError, type ErrorKind } from '../src-main/node/base/domainError';

/**
 * Asserts that `attempt` is refused with a DomainError of `kind` whose first issue names `field` (undefined: the
 * request as a whole) and whose message, what the user reads, matches `message`.
 */
export async function refusedWith(attempt: Promise<unknown>, kind: ErrorKind, field: string | undefined, message: RegExp): Promise<void> {
  await assert.rejects(attempt, (error: unknown) => {
    assert.ok(error instanceof DomainError, `expected a DomainError, got ${String(error)}`);
    assert.equal(error.kind, kind);
    assert.equal(error.issues?.[0]?.path, field);
    assert.match(error.message, message);
    return true;
  });
}
