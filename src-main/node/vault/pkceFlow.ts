import * as oauth from 'oauth4webapi';
import { asFlowError, requestedScopes, type OAuthEndpoints } from './authorizationServer';
import { LoopbackRedirect } from './loopbackRedirect';
import { OAuthFlowError } from './vaultErrors';

export interface PkceFlow {
  /** Open this in the system browser. */
  authorizeUrl: string;
  redirectUri: string;
  /** When the listener stops waiting (ms since the epoch). */
  expiresAt: number;
  /** Settles with the tokens once the browser delivered the code and it was exchanged. */
  tokens: Promise<oauth.TokenEndpointResponse>;
}

/** One authorization request's secrets: what the callback and the code exchange are checked against. */
export interface AuthorizationRequest {
  url: URL;
  state: string;
  codeVerifier: string;
}

/** The authorize URL with a fresh state and an S256 PKCE challenge (RFC 7636). */
export async function buildAuthorizationRequest(endpoints: OAuthEndpoints, scopes: readonly string[], redirectUri: string, state = oauth.generateRandomState()): Promise<AuthorizationRequest> {
  const { provider, as, client } = endpoints;
  if (!as.authorization_endpoint) throw new OAuthFlowError('unsupported', `${provider.name} has no authorization endpoint; use the device flow`);
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const url = new URL(as.authorization_endpoint);
  url.searchParams.set('client_id', client.client_id);
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', requestedScopes(provider, scopes));
  url.searchParams.set('state', state);
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(codeVerifier));
  url.searchParams.set('code_challenge_method', 'S256');
  // Providers that issue refresh tokens only after an explicit consent (offline_access) need to ask for it.
  if (provider.extraScopes.includes('offline_access')) url.searchParams.set('prompt', 'consent');
  return { url, state, codeVerifier };
}

/** Checks the callback (state, error, issuer) and trades its code for tokens; the server refuses a code used twice. */
export async function exchangeAuthorizationCode(endpoints: OAuthEndpoints, callback: URL, request: AuthorizationRequest, redirectUri: string): Promise<oauth.TokenEndpointResponse> {
  const { provider, as, client, clientAuth, requestOptions } = endpoints;
  try {
    const params = oauth.validateAuthResponse(as, client, callback, request.state);
    const response = await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, redirectUri, request.codeVerifier, requestOptions);
    return await oauth.processAuthorizationCodeResponse(as, client, response);
  } catch (error) {
    throw asFlowError(provider, 'authorization code exchange', error);
  }
}

/**
 * RFC 8252 authorization code + PKCE for an installed app: a loopback listener on 127.0.0.1 (random port) takes
 * exactly one callback with the matching state, then the code is exchanged with the verifier only this process
 * knows.
 */
export async function startPkceFlow(endpoints: OAuthEndpoints, scopes: readonly string[], options: { signal: AbortSignal; timeoutMs: number }): Promise<PkceFlow> {
  const state = oauth.generateRandomState();
  const listener = await LoopbackRedirect.open(state, options.timeoutMs, endpoints.provider.redirectPort ?? 0);
  let request: AuthorizationRequest;
  try {
    request = await buildAuthorizationRequest(endpoints, scopes, listener.redirectUri, state);
  } catch (error) {
    listener.fail(error as Error);
    throw error;
  }
  const cancel = () => listener.fail(new OAuthFlowError('cancelled', 'the sign-in was cancelled'));
  if (options.signal.aborted) cancel();
  else options.signal.addEventListener('abort', cancel, { once: true });
  const tokens = listener.callback
    .then((callback) => exchangeAuthorizationCode(endpoints, callback, request, listener.redirectUri))
    .finally(() => options.signal.removeEventListener('abort', cancel));
  tokens.catch(() => {});
  return { authorizeUrl: request.url.href, redirectUri: listener.redirectUri, expiresAt: Date.now() + options.timeoutMs, tokens };
}
