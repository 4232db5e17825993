import { DomainError, type ErrorKind } from '../base/domainError';

/**
 * Every refusal or failure of the ACP client carries one of these codes (the DomainError's `reference`), so the host,
 * the UI and tests branch on the code while the user reads the message: what went wrong and what to do.
 */
export type AcpErrorCode =
  | 'ACP_UNKNOWN_AGENT'
  | 'ACP_AGENT_MISSING'
  | 'ACP_AGENT_CRASHED_AT_START'
  | 'ACP_AGENT_CRASHED'
  | 'ACP_AGENT_HUNG'
  | 'ACP_BAD_MESSAGE'
  | 'ACP_MESSAGE_TOO_LARGE'
  | 'ACP_PROTOCOL_VERSION'
  | 'ACP_AGENT_ERROR'
  | 'ACP_NOT_RUNNING'
  | 'ACP_BUSY'
  | 'ACP_NOT_FOUND'
  | 'ACP_NOT_RESUMABLE'
  | 'ACP_INSTALL_OFFLINE'
  | 'ACP_INSTALL_FAILED'
  | 'ACP_NOT_INSTALLABLE'
  | 'ACP_BAD_REQUEST';

const KIND_OF_CODE: Record<AcpErrorCode, ErrorKind> = {
  ACP_UNKNOWN_AGENT: 'not_found',
  ACP_AGENT_MISSING: 'unavailable',
  ACP_AGENT_CRASHED_AT_START: 'unavailable',
  ACP_AGENT_CRASHED: 'closed',
  ACP_AGENT_HUNG: 'unavailable',
  ACP_BAD_MESSAGE: 'closed',
  ACP_MESSAGE_TOO_LARGE: 'limit',
  ACP_PROTOCOL_VERSION: 'unavailable',
  ACP_AGENT_ERROR: 'unavailable',
  ACP_NOT_RUNNING: 'state',
  ACP_BUSY: 'state',
  ACP_NOT_FOUND: 'not_found',
  ACP_NOT_RESUMABLE: 'state',
  ACP_INSTALL_OFFLINE: 'unavailable',
  ACP_INSTALL_FAILED: 'unavailable',
  ACP_NOT_INSTALLABLE: 'invalid_input',
  ACP_BAD_REQUEST: 'invalid_input',
};

export class AcpError extends DomainError {
  constructor(
    readonly code: AcpErrorCode,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(KIND_OF_CODE[code], message, { reference: code, cause: options.cause });
    this.name = 'AcpError';
  }
}
