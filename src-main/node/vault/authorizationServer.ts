import * as oauth from 'oauth4webapi';
import { isLoopbackUrl, type OAuthProvider } from './providers';
import { OAuthFlowError } from './vaultErrors';

/** Everything a token request to one provider needs: its server metadata, this app as its client, and options. */
export interface OAuthEndpoints {
  provider: OAuthProvider;
  as: oauth.AuthorizationServer;
  client: oauth.Client;
  clientAuth: oauth.ClientAuth;
  /** Plain http only toward this machine (a local authorization server); everything else must be https. */
  requestOptions: { [oauth.allowInsecureRequests]?: boolean; [oauth.customFetch]?: typeof fetch; signal?: AbortSignal };
}

/**
 * The provider's endpoints: written down (GitHub, Google) or discovered from its issuer (generic OIDC; RFC 8414 /
 * OpenID Discovery), with the issuer in the answer checked against the one configured.
 */
export async function resolveEndpoints(provider: OAuthProvider, signal?: AbortSignal): Promise<OAuthEndpoints> {
  if (!provider.clientId) throw new OAuthFlowError('not_configured', `${provider.name} has no OAuth client id configured`);
  const issuer = new URL(provider.server.issuer);
  const requestOptions = {
    ...(isLoopbackUrl(issuer) ? { [oauth.allowInsecureRequests]: true } : {}),
    ...(provider.errorsWithStatus200 ? { [oauth.customFetch]: errorsAsStatus400 } : {}),
    signal,
  };
  let as: oauth.AuthorizationServer;
  if (provider.server.discovery) {
    try {
      const response = await oauth.discoveryRequest(issuer, { ...requestOptions, algorithm: 'oidc' });
      as = await oauth.processDiscoveryResponse(issuer, response);
    } catch (error) {
      throw new OAuthFlowError(
        'discovery_failed',
        `${provider.name}: its OpenID configuration could not be read from ${issuer.href} (${(error as Error).message}); check the issuer URL`,
        { cause: error },
      );
    }
  } else {
    const server = provider.server;
    as = {
      issuer: server.issuer,
      token_endpoint: server.tokenEndpoint,
      ...(server.authorizationEndpoint ? { authorization_endpoint: server.authorizationEndpoint } : {}),
      ...(server.deviceAuthorizationEndpoint ? { device_authorization_endpoint: server.deviceAuthorizationEndpoint } : {}),
      ...(server.revocationEndpoint ? { revocation_endpoint: server.revocationEndpoint } : {}),
    };
  }
  // A secret set up in the app is read from the keychain only now, when a token request needs it.
  const secret = provider.clientSecret ?? (await provider.readClientSecret?.())?.expose() ?? null;
  const clientAuth = secret ? oauth.ClientSecretPost(secret) : oauth.None();
  return { provider, as, client: { client_id: provider.clientId }, clientAuth, requestOptions };
}

/** The provider's names for the scopes asked for, plus the ones it always gets (offline_access), without repeats. */
export function requestedScopes(provider: OAuthProvider, scopes: readonly string[]): string {
  const names = scopes.map((scope) => provider.scopeName?.(scope) ?? scope);
  return [...new Set([...names, ...provider.extraScopes])].join(' ');
}

/**
 * An OAuth error response as the broker's typed error, with the provider's own code (invalid_grant, access_denied,
 * expired_token, ...) as `reason`; anything else (network, malformed answers) as reason 'request_failed'.
 */
export function asFlowError(provider: OAuthProvider, what: string, error: unknown): OAuthFlowError {
  if (error instanceof OAuthFlowError) return error;
  if (error instanceof oauth.ResponseBodyError || error instanceof oauth.AuthorizationResponseError) {
    const description = error.error_description ? `: ${error.error_description}` : '';
    return new OAuthFlowError(error.error, `${provider.name} refused the ${what} (${error.error}${description})`, { cause: error });
  }
  if ((error as Error)?.name === 'AbortError') return new OAuthFlowError('cancelled', `the ${what} was cancelled`, { cause: error });
  return new OAuthFlowError('request_failed', `the ${what} with ${provider.name} failed: ${(error as Error)?.message ?? String(error)}`, { cause: error });
}

/**
 * fetch for providers that send OAuth errors with status 200 (GitHub): a JSON answer with an `error` member and no
 * `access_token` becomes the 400 it stands for, so the library reads it as the error (authorization_pending,
 * slow_down, bad_verification_code, ...) instead of a malformed success.
 */
async function errorsAsStatus400(input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]): Promise<Response> {
  const response = await fetch(input, init);
  if (response.status !== 200 || !(response.headers.get('content-type') ?? '').includes('json')) return response;
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  const isError = typeof body === 'object' && body !== null && typeof (body as { error?: unknown }).error === 'string' && !('access_token' in body);
  return new Response(text, { status: isError ? 400 : 200, headers: response.headers });
}
