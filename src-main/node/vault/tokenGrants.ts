import * as oauth from 'oauth4webapi';
import { asFlowError, type OAuthEndpoints } from './authorizationServer';

/**
 * Trades a refresh token for new tokens. With rotation the answer carries a new refresh token and the old one is
 * dead: the caller must store the new one before anything else uses the connection. A refused refresh token
 * (invalid_grant: revoked, expired, or an earlier one of its family was reused) rejects with reason invalid_grant.
 */
export async function refreshTokens(endpoints: OAuthEndpoints, refreshToken: string): Promise<oauth.TokenEndpointResponse> {
  const { provider, as, client, clientAuth, requestOptions } = endpoints;
  try {
    const response = await oauth.refreshTokenGrantRequest(as, client, clientAuth, refreshToken, requestOptions);
    return await oauth.processRefreshTokenResponse(as, client, response);
  } catch (error) {
    throw asFlowError(provider, 'token refresh', error);
  }
}

/** RFC 7009: tells the provider to revoke a token. False when the provider has no revocation endpoint. */
export async function revokeToken(endpoints: OAuthEndpoints, token: string, hint: 'access_token' | 'refresh_token'): Promise<boolean> {
  const { provider, as, client, clientAuth, requestOptions } = endpoints;
  if (!as.revocation_endpoint) return false;
  try {
    const response = await oauth.revocationRequest(as, client, clientAuth, token, { ...requestOptions, additionalParameters: { token_type_hint: hint } });
    await oauth.processRevocationResponse(response);
    return true;
  } catch (error) {
    throw asFlowError(provider, 'token revocation', error);
  }
}
