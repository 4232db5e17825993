import { z } from 'zod';

/** Every error that crosses the bridge carries one of these codes, so callers branch on codes, not on text. */
export const ErrorCode = z.enum([
  'BAD_FRAME', // not JSON, or JSON that is not a frame
  'FRAME_TOO_LARGE',
  'UNKNOWN_METHOD',
  'UNKNOWN_STREAM',
  'INVALID_PARAMS',
  'UNAUTHORIZED',
  'NOT_FOUND',
  'CONFLICT',
  'INVALID_STATE',
  'OVERFLOW',
  'UNAVAILABLE',
  'CLOSED',
  'INTERNAL',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const ErrorBody = z.object({
  code: ErrorCode,
  message: z.string(),
  /** Which field was wrong and how, for INVALID_PARAMS. */
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export class RpcError extends Error {
  readonly code: ErrorCode;
  readonly issues: ErrorBody['issues'];

  constructor(code: ErrorCode, message: string, issues?: ErrorBody['issues']) {
    super(message);
    this.name = 'RpcError';
    this.code = code;
    this.issues = issues;
  }

  toBody(): ErrorBody {
    return this.issues ? { code: this.code, message: this.message, issues: this.issues } : { code: this.code, message: this.message };
  }

  /** The same error under another code (e.g. a schema failure that means the frame itself is malformed). */
  withCode(code: ErrorCode): RpcError {
    return new RpcError(code, this.message, this.issues);
  }

  static fromBody(body: ErrorBody): RpcError {
    return new RpcError(body.code, body.message, body.issues);
  }
}

/** Turns a zod failure into the INVALID_PARAMS error a caller can act on (which field, what was expected). */
export function invalidParams(what: string, error: z.ZodError): RpcError {
  const issues = error.issues.map((issue) => ({
    path: issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)',
    message: issue.message,
  }));
  const summary = issues.map((i) => `${i.path}: ${i.message}`).join('; ');
  return new RpcError('INVALID_PARAMS', `${what}: ${summary}`, issues);
}
