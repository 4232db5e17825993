/**
 * Every refusal of the harness module carries one of these codes, so the host, the CLI and tests can branch on
 * the code while the user reads the message (what was wrong and how to fix it).
 */
export type HarnessErrorCode =
  | 'HARNESS_UNKNOWN_FRONTEND'
  | 'HARNESS_UNSUPPORTED_MODE'
  | 'HARNESS_PROVIDER_MISMATCH'
  | 'HARNESS_BAD_CONTINUATION_KEY'
  | 'HARNESS_RESUME_CWD_MISMATCH'
  | 'HARNESS_CWD_NOT_ABSOLUTE'
  | 'HARNESS_CWD_MISSING'
  | 'HARNESS_PROMPT_REQUIRED'
  | 'HARNESS_BAD_ENV'
  | 'HARNESS_BAD_REQUEST'
  | 'HARNESS_SDK_MISSING'
  | 'HARNESS_ENDPOINT_MISSING';

export class HarnessError extends Error {
  constructor(
    readonly code: HarnessErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'HarnessError';
  }

  toJSON(): { code: HarnessErrorCode; message: string } {
    return { code: this.code, message: this.message };
  }
}
