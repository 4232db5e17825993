import { DomainError } from '../base/domainError';

// The typed errors of the credentials backend. Each says what went wrong and what the user (or the agent) can do.

/**
 * No usable keychain, so no credential can be stored or read. There is no plaintext fallback: credential features
 * stay off until the keychain works, and this says why and how to fix it.
 */
export class VaultUnavailableError extends DomainError {
  readonly code = 'vault_unavailable';
  constructor(
    /** Why the keychain cannot be used (the keychain's own explanation). */
    readonly problem: string,
    options?: { cause?: unknown },
  ) {
    super(
      'unavailable',
      `Credentials are disabled: ${problem.replace(/\.$/, '')}. Nothing was stored, and nothing is ever stored outside the OS keychain. ` +
        'Fix the keychain (see above) and restart the app, then connect again.',
      options,
    );
    this.name = 'VaultUnavailableError';
  }
}

export class ConnectionNotFoundError extends DomainError {
  readonly code = 'connection_not_found';
  constructor(readonly connectionId: string) {
    super('not_found', `There is no connection "${connectionId}". List the connections (connections.list) and use one of their ids.`);
    this.name = 'ConnectionNotFoundError';
  }
}

export class UnknownProviderError extends DomainError {
  readonly code = 'unknown_provider';
  constructor(
    readonly providerId: string,
    known: readonly string[],
  ) {
    super('invalid_input', `There is no provider "${providerId}". Known providers: ${known.join(', ')}.`);
    this.name = 'UnknownProviderError';
  }
}

/** A request the broker refused before anything was sent: wrong kind of provider, missing configuration, bad input. */
export class CredentialRequestError extends DomainError {
  readonly code = 'bad_request';
  constructor(message: string) {
    super('invalid_input', message);
    this.name = 'CredentialRequestError';
  }
}

/**
 * An OAuth flow or token request ended without a credential: the user denied it, the code ran out, the provider
 * refused the refresh token, the state did not match. `reason` is the OAuth error code when there is one.
 */
export class OAuthFlowError extends DomainError {
  readonly code = 'oauth_failed';
  constructor(
    readonly reason: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super('state', message, options);
    this.name = 'OAuthFlowError';
  }
}

/** A handle that is unknown, belongs to another agent or session, or whose grant or connection has ended. */
export class HandleInvalidError extends Error {
  readonly code = 'handle_invalid';
  constructor(
    message: string,
    /** What the agent can do about it. */
    readonly hint: string,
  ) {
    super(message);
    this.name = 'HandleInvalidError';
  }

  /** How a WASM guest receives it (the sandbox's host-call error shape). */
  toGuestError(): { code: 'capability_revoked'; message: string; hint: string } {
    return { code: 'capability_revoked', message: this.message, hint: this.hint };
  }
}
