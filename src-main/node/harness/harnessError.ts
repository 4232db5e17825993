import { DomainError, type ErrorKind } from '../base/domainError';

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

/** What each code means to the host (DomainError's kinds); a code not listed is a request to fix (invalid_input). */
const KIND_OF_CODE: Partial<Record<string, ErrorKind>> = {
  HARNESS_NOT_FOUND: 'not_found',
  HARNESS_CLI_MISSING: 'unavailable',
  HARNESS_NO_CONNECTION: 'unavailable',
  HARNESS_NOT_RESUMABLE: 'state',
  HARNESS_ALREADY_RUNNING: 'state',
  HARNESS_CWD_MISSING: 'state',
  HARNESS_RESUME_CWD_MISMATCH: 'state',
};

/** The kind of a harness code; the code itself stays the refusal's `reference` (the user sees it after the message). */
export function harnessKind(code: string): ErrorKind {
  return KIND_OF_CODE[code] ?? 'invalid_input';
}

export class HarnessError extends DomainError {
  constructor(
    readonly code: HarnessErrorCode,
    message: string,
  ) {
    super(harnessKind(code), message, { reference: code });
    this.name = 'HarnessError';
  }

  toJSON(): { code: HarnessErrorCode; message: string } {
    return { code: this.code, message: this.message };
  }
}
