/**
 * Why a model call failed, as a run's error code:
 * - connection_unavailable: the agent's connection was not granted, or no connection of its provider exists;
 * - credential_revoked: the connection's grant or the connection itself ended (the proxy refused or cut the call);
 * - provider_unauthorized: the provider refused the key (401/403 from the provider itself);
 * - provider_rate_limited: 429 (retryAfterS when the provider said);
 * - provider_unavailable: 5xx or 529 (overloaded);
 * - provider_bad_request: 400/404/422, e.g. a model name the provider does not know;
 * - provider_unreachable: no answer at all (network, DNS, the proxy could not reach it);
 * - provider_stream_error: the stream reported an error, or broke off before the response was complete.
 */
export type LlmErrorCode =
  | 'connection_unavailable'
  | 'credential_revoked'
  | 'provider_unauthorized'
  | 'provider_rate_limited'
  | 'provider_unavailable'
  | 'provider_bad_request'
  | 'provider_unreachable'
  | 'provider_stream_error';

/** A failed model call, typed, with what the user can do about it. Never carries a key or a request body. */
export class LlmError extends Error {
  constructor(
    readonly code: LlmErrorCode,
    message: string,
    readonly hint: string,
    readonly status: number | null = null,
    readonly retryAfterS: number | null = null,
  ) {
    super(message);
    this.name = 'LlmError';
  }
}

/** A broken model configuration (llm-models.json, an agent's .llm.toml): names the file and the key to fix. */
export class LlmConfigError extends Error {
  readonly code = 'llm_config';
  constructor(
    readonly file: string,
    readonly key: string,
    problem: string,
    readonly hint: string,
  ) {
    super(`${file}: ${key}: ${problem}`);
    this.name = 'LlmConfigError';
  }
}

/** The most of a provider's error message kept (they can quote the request back). */
const MAX_PROVIDER_MESSAGE = 500;

/** The provider's own words from an error body: Anthropic's and OpenAI's {error: {type, message}} or plain text. */
export function providerMessage(body: string): { type: string | null; message: string } {
  try {
    const parsed = JSON.parse(body) as { error?: { type?: unknown; code?: unknown; message?: unknown } | string; message?: unknown };
    const error = parsed.error;
    if (typeof error === 'string') return { type: null, message: error.slice(0, MAX_PROVIDER_MESSAGE) };
    if (error && typeof error === 'object') {
      const type = typeof error.type === 'string' ? error.type : typeof error.code === 'string' ? error.code : null;
      const message = typeof error.message === 'string' ? error.message : JSON.stringify(error);
      return { type, message: message.slice(0, MAX_PROVIDER_MESSAGE) };
    }
    if (typeof parsed.message === 'string') return { type: null, message: parsed.message.slice(0, MAX_PROVIDER_MESSAGE) };
  } catch {
    // not JSON: the text itself
  }
  return { type: null, message: body.trim().slice(0, MAX_PROVIDER_MESSAGE) || '(no message)' };
}

/** The typed error for an HTTP answer that is not a success. */
export function errorForStatus(provider: string, status: number, body: string, retryAfter: string | null): LlmError {
  const { type, message } = providerMessage(body);
  if (type === 'credential_revoked') return revoked(message);
  // The credential proxy's own answers when it could not get the call to the provider.
  if (type === 'upstream_unreachable' || type === 'credential_unavailable' || type === 'no_upstream') {
    return new LlmError('provider_unreachable', `${provider} could not be reached: ${message}`, 'check the network, or the connection\'s base URL in Connections', status);
  }
  if (status === 401 || status === 403) {
    return new LlmError('provider_unauthorized', `${provider} refused the credential (HTTP ${status}): ${message}`, `check the ${provider} connection in Connections (the key may be wrong or revoked at the provider), then run the agent again`, status);
  }
  if (status === 429) {
    const seconds = retryAfter !== null && /^\d+(\.\d+)?$/.test(retryAfter.trim()) ? Math.ceil(Number(retryAfter)) : null;
    return new LlmError('provider_rate_limited', `${provider} is rate limiting this key (HTTP 429): ${message}`, seconds !== null ? `wait ${seconds} s and run the agent again` : 'wait a little and run the agent again, or use a key with a higher limit', status, seconds);
  }
  if (status >= 500) {
    return new LlmError('provider_unavailable', `${provider} failed to answer (HTTP ${status}): ${message}`, 'the provider has a problem on its side; run the agent again later', status);
  }
  return new LlmError('provider_bad_request', `${provider} refused the request (HTTP ${status}): ${message}`, 'check the model names in llm-models.json (or the agent\'s .llm.toml) and the max_tokens asked for', status);
}

export function revoked(message: string): LlmError {
  return new LlmError('credential_revoked', `the connection can no longer be used: ${message}`, 'grant the agent the connection again (or reconnect the provider in Connections), then run it again');
}

/** An error reported inside a stream (an `error` event, a failed response), by the provider or the credential proxy. */
export function streamError(provider: string, payload: Record<string, unknown>): LlmError {
  const inner = (typeof payload.error === 'object' && payload.error !== null ? payload.error : payload) as { type?: unknown; code?: unknown; message?: unknown };
  const type = typeof inner.type === 'string' && inner.type !== 'error' ? inner.type : typeof inner.code === 'string' ? inner.code : 'error';
  const message = typeof inner.message === 'string' ? inner.message.slice(0, MAX_PROVIDER_MESSAGE) : '(no message)';
  if (type === 'credential_revoked') return revoked(message);
  if (type === 'overloaded_error' || type === 'api_error' || type === 'server_error') {
    return new LlmError('provider_unavailable', `${provider} failed while answering (${type}): ${message}`, 'the provider has a problem on its side; run the agent again later');
  }
  if (type === 'rate_limit_error' || type === 'rate_limit_exceeded') {
    return new LlmError('provider_rate_limited', `${provider} is rate limiting this key (${type}): ${message}`, 'wait a little and run the agent again');
  }
  return new LlmError('provider_stream_error', `${provider} reported an error in the stream (${type}): ${message}`, 'run the agent again; if it repeats, check the model and the connection');
}
