import { z } from 'zod';
import { invalidField, DomainError } from '../base/domainError';
import { checkSecureUrl } from './secureUrl';

/** What is stored of an OAuth client set up in the app (the `settings` column); never its secret. */
export const OAuthClientSettings = z.object({
  issuer: z.string(),
  endpoints: z.object({ authorization: z.string().nullable(), token: z.string(), deviceAuthorization: z.string().nullable(), revocation: z.string().nullable() }).nullable(),
  clientId: z.string(),
  scopes: z.array(z.string()),
  apiDomains: z.array(z.string()),
  apiBaseUrl: z.string().nullable(),
  redirectPort: z.number().int().nullable(),
  flows: z.array(z.enum(['device', 'pkce'])),
});
export type OAuthClientSettings = z.infer<typeof OAuthClientSettings>;

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;
const IP_LITERAL = /^(\d{1,3}(\.\d{1,3}){3}|\[?[0-9a-f:]+\]?)$/;

/** The URL in a field, or an invalid_input error naming the field and saying what a good one looks like. */
function urlField(path: string, value: string, what: string, example: string): string {
  try {
    return checkSecureUrl(value, what, example).href.replace(/\/$/, '');
  } catch (error) {
    throw invalidField(path, (error as Error).message);
  }
}

/**
 * Checks what the form sent and returns it normalised: every URL https (plain http only toward 127.0.0.1 or
 * localhost, so a code or a token never crosses a network in the clear), API domains as bare host names, the API's
 * base URL on one of them, and the endpoints each chosen sign-in needs.
 */
export function checkOAuthClientSettings(input: OAuthClientSettings): OAuthClientSettings {
  const issuer = urlField('issuer', input.issuer, 'the issuer', 'https://sso.example.com');
  const endpoints = input.endpoints && {
    authorization: input.endpoints.authorization?.trim() ? urlField('endpoints.authorization', input.endpoints.authorization, 'the authorization endpoint', 'https://sso.example.com/authorize') : null,
    token: urlField('endpoints.token', input.endpoints.token, 'the token endpoint', 'https://sso.example.com/token'),
    deviceAuthorization: input.endpoints.deviceAuthorization?.trim()
      ? urlField('endpoints.deviceAuthorization', input.endpoints.deviceAuthorization, 'the device authorization endpoint', 'https://sso.example.com/device/code')
      : null,
    revocation: input.endpoints.revocation?.trim() ? urlField('endpoints.revocation', input.endpoints.revocation, 'the revocation endpoint', 'https://sso.example.com/revoke') : null,
  };
  if (endpoints && input.flows.includes('pkce') && !endpoints.authorization) {
    throw invalidField('endpoints.authorization', 'the browser sign-in needs the authorization endpoint; give it, or sign in with a code only');
  }
  if (endpoints && input.flows.includes('device') && !endpoints.deviceAuthorization) {
    throw invalidField('endpoints.deviceAuthorization', 'signing in with a code needs the device authorization endpoint; give it, or use the browser sign-in only');
  }
  const apiDomains = [...new Set(input.apiDomains.map((d) => d.trim().toLowerCase()).filter(Boolean))];
  if (apiDomains.length === 0) throw invalidField('apiDomains', 'name at least one API host (e.g. api.example.com): the access token is sent to no other');
  for (const domain of apiDomains) {
    if (!HOST_NAME.test(domain) && !IP_LITERAL.test(domain)) {
      throw invalidField('apiDomains', `"${domain}" is not a host name; give host names only, like api.example.com (no https://, no path, no port)`);
    }
  }
  const apiBaseUrl = input.apiBaseUrl?.trim() ? urlField('apiBaseUrl', input.apiBaseUrl, 'the API base URL', 'https://api.example.com') : null;
  if (apiBaseUrl && !apiDomains.includes(new URL(apiBaseUrl).hostname.replace(/^\[|\]$/g, ''))) {
    throw invalidField('apiBaseUrl', `its host ${new URL(apiBaseUrl).hostname} is not one of the API domains; add it there or correct the URL`);
  }
  const scopes = [...new Set(input.scopes.flatMap((s) => s.trim().split(/\s+/)).filter(Boolean))];
  if (input.flows.length === 0) throw invalidField('flows', 'choose at least one way to sign in');
  return { issuer, endpoints, clientId: input.clientId.trim(), scopes, apiDomains, apiBaseUrl, redirectPort: input.redirectPort, flows: [...new Set(input.flows)] };
}

/** The fields that decide where a connection's tokens go: not changed under live connections. */
export function changesWhereTokensGo(before: OAuthClientSettings, after: OAuthClientSettings): boolean {
  const key = (s: OAuthClientSettings) => JSON.stringify([s.issuer, s.endpoints, s.clientId, [...s.apiDomains].sort(), s.apiBaseUrl]);
  return key(before) !== key(after);
}

/** "Acme SSO" → "acme-sso": the provider id a new client gets. */
export function providerIdFor(name: string): string {
  const slug = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48);
  const id = /^[a-z]/.test(slug) ? slug : `oauth-${slug || 'client'}`;
  return id;
}

export class DuplicateProviderError extends DomainError {
  readonly code = 'duplicate_provider';
  constructor(name: string) {
    super('conflict', `name: there is already a provider called "${name}"; choose another name`, { issues: [{ path: 'name', message: `there is already a provider called "${name}"` }] });
    this.name = 'DuplicateProviderError';
  }
}
