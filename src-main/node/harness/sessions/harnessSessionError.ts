import { DomainError } from '../../base/domainError';
import { harnessKind } from '../harnessError';

/**
 * Refusals of the host's harness sessions (beside the harness module's own HarnessError codes): the CLI is not
 * installed, no connection serves the provider, the session cannot be resumed. The message says what to do.
 */
export type HarnessSessionErrorCode = 'HARNESS_NOT_FOUND' | 'HARNESS_CLI_MISSING' | 'HARNESS_NO_CONNECTION' | 'HARNESS_NOT_RESUMABLE' | 'HARNESS_ALREADY_RUNNING';

export class HarnessSessionError extends DomainError {
  constructor(
    readonly code: HarnessSessionErrorCode,
    message: string,
  ) {
    super(harnessKind(code), message, { reference: code });
    this.name = 'HarnessSessionError';
  }
}
