import { z } from 'zod';

/**
 * The OAuth clients the user sets up in the Connections view (issue 23): the app's registration with an
 * authorization server, taking effect at once, no file and no restart. The client secret, when a provider insists
 * on one, crosses the bridge once in `credentials.saveOAuthClient` and lives in the OS keychain; nothing here carries
 * it back (`hasClientSecret` says whether one is stored). Schema messages never quote the input.
 */
const Url = z.string().trim().max(2048, 'a URL is at most 2048 characters');
const ProviderId = z.string().regex(/^[a-z][a-z0-9_-]{0,63}$/, 'expected a provider id such as "acme-sso" (credentials.oauthClients lists them)');

export const OAuthEndpointsInput = z.strictObject({
  authorization: Url.nullable(),
  token: Url,
  deviceAuthorization: Url.nullable(),
  revocation: Url.nullable(),
});
export type OAuthEndpointsInput = z.infer<typeof OAuthEndpointsInput>;

export const SaveOAuthClientRequest = z.strictObject(
  {
    /** The client to edit; absent: a new one (its id is made from the name). */
    id: ProviderId.optional(),
    name: z.string().trim().min(1, 'the name is empty; give the provider a name, e.g. "Acme SSO"').max(80, 'a name is at most 80 characters'),
    issuer: Url,
    /** Written-down endpoints, for a server without OpenID discovery; null: discovered from the issuer. */
    endpoints: OAuthEndpointsInput.nullable(),
    clientId: z.string().trim().min(1, 'the client id is empty; copy it from the provider\'s app registration').max(512, 'a client id is at most 512 characters'),
    /** A new client secret, once; absent: keep the stored one (or none). */
    clientSecret: z.string().max(4096, 'a client secret is at most 4096 characters').optional(),
    /** True: delete the stored client secret. */
    removeClientSecret: z.boolean().optional(),
    /** Asked for on every sign-in besides what the agent needs, e.g. offline_access. */
    scopes: z.array(z.string().min(1, 'a scope cannot be empty').max(200, 'a scope is at most 200 characters')).max(50, 'at most 50 scopes'),
    /** Host names the access token may be sent to, exactly. */
    apiDomains: z.array(z.string().trim().min(1, 'an API domain cannot be empty').max(253, 'a host name is at most 253 characters')).max(20, 'at most 20 API domains'),
    apiBaseUrl: Url.nullable(),
    /** A fixed loopback port for the browser sign-in; null: any free port (RFC 8252 §7.3). */
    redirectPort: z.number().int().min(1024, 'the redirect port is 1024 to 65535').max(65535, 'the redirect port is 1024 to 65535').nullable(),
    flows: z.array(z.enum(['device', 'pkce'])).min(1, 'choose at least one way to sign in'),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? 'unknown fields: saveOAuthClient takes id, name, issuer, endpoints, clientId, clientSecret, removeClientSecret, scopes, apiDomains, apiBaseUrl, redirectPort and flows' : undefined) },
);
export type SaveOAuthClientRequest = z.input<typeof SaveOAuthClientRequest>;

/**
 * The client id of a built-in OAuth provider (GitHub, Google), set in the Connections view instead of
 * oauth-providers.json: it applies at once. The secret, for providers that insist on one, goes to the OS keychain.
 */
export const ConfigureBuiltInClientRequest = z.strictObject(
  {
    provider: ProviderId,
    clientId: z
      .string()
      .trim()
      .min(1, 'the client id is empty; copy it from the app you registered with the provider')
      .max(512, 'a client id is at most 512 characters')
      // eslint-disable-next-line no-control-regex
      .regex(/^[^\u0000-\u001f\u007f]*$/, 'a client id has no control characters (tabs, line breaks); copy only the id'),
    /** A new client secret, once; absent: keep the stored one (or none). */
    clientSecret: z.string().max(4096, 'a client secret is at most 4096 characters').optional(),
    /** True: delete the stored client secret. */
    removeClientSecret: z.boolean().optional(),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? 'unknown fields: configureBuiltInClient takes provider, clientId, clientSecret and removeClientSecret' : undefined) },
);
export type ConfigureBuiltInClientRequest = z.input<typeof ConfigureBuiltInClientRequest>;

export const BuiltInClientInfo = z.object({
  provider: z.string(),
  name: z.string(),
  clientId: z.string(),
  hasClientSecret: z.boolean(),
  /** The redirect URI to register with the provider. */
  redirectUri: z.string(),
  updatedAt: z.number().int(),
});
export type BuiltInClientInfo = z.infer<typeof BuiltInClientInfo>;

export const OAuthClientInfo = z.object({
  id: z.string(),
  name: z.string(),
  issuer: z.string(),
  endpoints: OAuthEndpointsInput.nullable(),
  clientId: z.string(),
  hasClientSecret: z.boolean(),
  scopes: z.array(z.string()),
  apiDomains: z.array(z.string()),
  apiBaseUrl: z.string().nullable(),
  redirectPort: z.number().int().nullable(),
  flows: z.array(z.enum(['device', 'pkce'])),
  /** The redirect URI to register with the provider. */
  redirectUri: z.string(),
  /** Live connections made through this client (edits that would send their tokens elsewhere wait until they end). */
  connections: z.number().int(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type OAuthClientInfo = z.infer<typeof OAuthClientInfo>;

/** What Test found; `untestable` says what could not be checked and why. */
export const ConnectionCheck = z.object({
  connectionId: z.string(),
  outcome: z.enum(['ok', 'failed', 'untestable']),
  method: z.enum(['token_refresh', 'test_request', 'none']),
  message: z.string(),
  checkedAt: z.number().int(),
  durationMs: z.number().int(),
});
export type ConnectionCheck = z.infer<typeof ConnectionCheck>;
