/**
 * One error vocabulary for the host.
 *
 * Domain code (every area under src-main/node) says what went wrong in its own terms and never names a wire code:
 * it throws a `DomainError` (or a subclass an area defines, e.g. `CheckpointNotFoundError`) with
 *
 *   - a `kind` from the closed set below, which says what sort of refusal it is,
 *   - a message for the user: what was wrong and how to fix it (it is shown as is, so it names no internals),
 *   - optionally `issues` (which field of the request was wrong, and how) and a `reference`: a stable code a spec
 *     defines for this refusal (e.g. the harness's HARNESS_CLI_MISSING), shown after the message.
 *
 * The kinds are what the contract's codes meant where the host used them:
 *
 *   invalid_input  the request itself is wrong (a field, a key name, a path that is not absolute)   INVALID_PARAMS
 *   not_found      what the request names does not exist (a run, a session, a grant, a task)        NOT_FOUND
 *   conflict       it collides with something else (a revert touching later changes)                CONFLICT
 *   state          fine in itself, but not now (the session is closed, the run has ended)           INVALID_STATE
 *   unavailable    something the host needs is missing or busy (a CLI, the keychain, a lock)         UNAVAILABLE
 *   limit          a bound was passed (a reader fell too far behind a stream)                         OVERFLOW
 *   closed         what a stream followed has gone away (the terminal was closed)                    CLOSED
 *
 * One table at the handler edge (src-main/node/handlerErrors.ts, the only host file that imports the RPC error
 * type) turns a kind into the contract's code. Anything else that reaches the edge is a bug or an environment
 * failure: it is logged through the host log and the user is told "the host log says why", never its raw message.
 * Agent-facing tool results that a spec shapes (the sandbox's snake_case host-call codes, the harness's UPPER_SNAKE
 * codes) are other surfaces: they keep their own codes, mapped from the kind where the same error feeds both.
 * ESLint keeps domain code off the RPC error type (eslint.config.mjs, checked by test/layers.test.ts).
 */

export const ERROR_KINDS = ['invalid_input', 'not_found', 'conflict', 'state', 'unavailable', 'limit', 'closed'] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

/** Which field of a request was wrong, and how. */
export interface FieldIssue {
  path: string;
  message: string;
}

export interface DomainErrorOptions {
  issues?: FieldIssue[];
  /** A stable code a spec defines for this refusal; the user sees it after the message, in brackets. */
  reference?: string;
  cause?: unknown;
}

export class DomainError extends Error {
  readonly kind: ErrorKind;
  readonly issues: FieldIssue[] | undefined;
  readonly reference: string | undefined;

  constructor(kind: ErrorKind, message: string, options: DomainErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DomainError';
    this.kind = kind;
    this.issues = options.issues;
    this.reference = options.reference;
  }
}

/** A request field that is wrong: the message names the field, the issue says how to fix it. */
export function invalidField(path: string, message: string): DomainError {
  return new DomainError('invalid_input', `${path}: ${message}`, { issues: [{ path, message }] });
}

/** A schema's failure (zod's issues, structurally) as the invalid_input error a caller can act on. */
export function invalidInput(what: string, error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): DomainError {
  const issues = error.issues.map((issue) => ({
    path: issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)',
    message: issue.message,
  }));
  const summary = issues.map((i) => `${i.path}: ${i.message}`).join('; ');
  return new DomainError('invalid_input', `${what}: ${summary}`, { issues });
}
