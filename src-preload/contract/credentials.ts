import { z } from 'zod';
import { call, liveList, stream } from './define';
import { BuiltInClientInfo, ConfigureBuiltInClientRequest, ConnectionCheck, OAuthClientInfo, SaveOAuthClientRequest } from './oauthClients';

export * from './oauthClients';

/**
 * Connections to model and OAuth providers (docs/credentials.md). The secrets themselves live only in the OS
 * keychain: an API key crosses the bridge once, in `credentials.addApiKey`, and nothing here ever carries a key or a
 * token back. Schema messages never quote the input, so an INVALID_PARAMS answer cannot echo a pasted key.
 */
export const ConnectionId = z.string().regex(/^conn_[A-Za-z0-9_-]{8,64}$/, 'expected a connection id like "conn_…" (credentials.list gives them)');
export const FlowId = z.string().regex(/^flow_[A-Za-z0-9_-]{8,64}$/, 'expected a flow id like "flow_…" (the start call returns one)');
const ProviderId = z.string().regex(/^[a-z][a-z0-9_-]{0,63}$/, 'expected a provider id such as "anthropic" (credentials.providers lists them)');
const Label = z.string().trim().max(200, 'a label is at most 200 characters').optional();
const Scopes = z.array(z.string().min(1, 'a scope cannot be empty').max(200, 'a scope is at most 200 characters')).max(50, 'at most 50 scopes');

/** Whether credential features work at all; when not, `problem` says why and what to do (there is no fallback). */
export const VaultStatus = z.object({ available: z.boolean(), problem: z.string().nullable() });
export type VaultStatus = z.infer<typeof VaultStatus>;

export const ProviderInfo = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(['api_key', 'oauth']),
  /** OAuth: the ways it can be connected; empty until the app's OAuth client for it is configured. */
  flows: z.array(z.enum(['device', 'pkce'])),
  /** OpenAI-compatible endpoints: the user names the base URL. */
  needsBaseUrl: z.boolean(),
  configured: z.boolean(),
});
export type ProviderInfo = z.infer<typeof ProviderInfo>;

/** An agent holding a handle to a connection (the handle value itself never leaves the host). */
export const HandleHolder = z.object({
  handleId: z.string(),
  agentId: z.string(),
  sessionId: z.string(),
  capability: z.string(),
  issuedAt: z.number().int(),
});
export type HandleHolder = z.infer<typeof HandleHolder>;

export const ConnectionInfo = z.object({
  id: ConnectionId,
  provider: z.string(),
  kind: z.enum(['api_key', 'oauth']),
  label: z.string(),
  scopes: z.array(z.string()),
  baseUrl: z.string().nullable(),
  status: z.enum(['connected', 'failed', 'revoked', 'disconnected']),
  /** Why it failed or was revoked, in words the user can act on. */
  statusReason: z.string().nullable(),
  /** When the access token runs out (ms since the epoch); null for API keys and unknown lifetimes. */
  expiresAt: z.number().int().nullable(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
  refreshedAt: z.number().int().nullable(),
  handles: z.array(HandleHolder),
});
export type ConnectionInfo = z.infer<typeof ConnectionInfo>;

export const AddApiKeyRequest = z.strictObject({
  provider: ProviderId,
  /** The key, once. Messages below never include it. */
  apiKey: z
    .string({ error: 'the API key must be text' })
    .min(8, 'that does not look like an API key: it is shorter than 8 characters; paste the whole key')
    .max(8192, 'that is longer than any API key (at most 8192 characters); paste only the key'),
  label: Label,
  /** OpenAI-compatible only, e.g. http://127.0.0.1:11434/v1 for a local Ollama. */
  baseUrl: z.string().trim().min(1, 'the base URL is empty').max(2048, 'a base URL is at most 2048 characters').optional(),
}, {
  // zod's own message names the unknown fields, and a pasted key can end up as a field name: say it without them.
  error: (issue) => (issue.code === 'unrecognized_keys' ? 'unknown fields: addApiKey takes only provider, apiKey, label and baseUrl' : undefined),
});
export type AddApiKeyRequest = z.input<typeof AddApiKeyRequest>;

export const StartFlowRequest = z.strictObject({ provider: ProviderId, scopes: Scopes, label: Label });
export type StartFlowRequest = z.input<typeof StartFlowRequest>;

export const DeviceFlowStarted = z.object({
  flowId: FlowId,
  provider: z.string(),
  /** What the user types at the verification page. */
  userCode: z.string(),
  verificationUri: z.string(),
  /** The same page with the code filled in, when the provider offers one. */
  verificationUriComplete: z.string().nullable(),
  expiresAt: z.number().int(),
  intervalS: z.number(),
});
export type DeviceFlowStarted = z.infer<typeof DeviceFlowStarted>;

/**
 * A browser sign-in (RFC 8252 + PKCE). The host does not open a browser itself: the headless host may run where no
 * browser is, and the page showing this link is the user's own browser. The view shows `authorizeUrl` as a link the
 * user opens (in Electron, links to http(s) open in the system browser); the loopback listener at `redirectUri`
 * takes the answer.
 */
export const PkceFlowStarted = z.object({
  flowId: FlowId,
  provider: z.string(),
  authorizeUrl: z.string(),
  redirectUri: z.string(),
  expiresAt: z.number().int(),
});
export type PkceFlowStarted = z.infer<typeof PkceFlowStarted>;

export const FlowEvent = z.discriminatedUnion('kind', [
  z.object({ flowId: FlowId, kind: z.literal('pending'), polls: z.number().int() }),
  z.object({ flowId: FlowId, kind: z.literal('slow_down'), intervalS: z.number(), polls: z.number().int() }),
  z.object({ flowId: FlowId, kind: z.literal('connected'), connectionId: ConnectionId }),
  /** `reason` is the OAuth error code when there is one: access_denied, expired_token, ... */
  z.object({ flowId: FlowId, kind: z.literal('failed'), reason: z.string(), message: z.string() }),
  z.object({ flowId: FlowId, kind: z.literal('cancelled') }),
]);
export type FlowEvent = z.infer<typeof FlowEvent>;

export const DisconnectResult = z.object({
  connection: ConnectionInfo.omit({ handles: true }),
  /** True when the provider confirmed the revocation (RFC 7009); false when it has no endpoint or it failed. */
  revokedAtProvider: z.boolean(),
  providerError: z.string().nullable(),
  handlesEnded: z.number().int(),
});
export type DisconnectResult = z.infer<typeof DisconnectResult>;

const ConnectionOnly = ConnectionInfo.omit({ handles: true });

export const credentialContract = {
  'credentials.status': call(z.object({}), VaultStatus),
  'credentials.providers': call(z.object({}), z.array(ProviderInfo)),
  'credentials.list': call(z.object({ includeDisconnected: z.boolean().optional() }), z.array(ConnectionInfo)),
  'credentials.addApiKey': call(AddApiKeyRequest, ConnectionOnly),
  'credentials.startDeviceFlow': call(StartFlowRequest, DeviceFlowStarted),
  'credentials.startPkce': call(StartFlowRequest, PkceFlowStarted),
  /** False when the flow had already ended. */
  'credentials.cancelFlow': call(z.object({ flowId: FlowId }), z.object({ cancelled: z.boolean() })),
  'credentials.refresh': call(z.object({ connectionId: ConnectionId }), ConnectionOnly),
  'credentials.disconnect': call(z.object({ connectionId: ConnectionId }), DisconnectResult),
  /** The last 4 characters of an API key ("…abcd"), read from the keychain now; null for OAuth and keys under 12 characters. */
  'credentials.keyHint': call(z.object({ connectionId: ConnectionId }), z.object({ hint: z.string().max(5).nullable() })),
  /** Replaces an API key in place: same connection id, so agents' handles and grants keep working with the new key. */
  'credentials.rotateKey': call(
    z.strictObject(
      { connectionId: ConnectionId, apiKey: z.string({ error: 'the API key must be text' }).max(8192, 'that is longer than any API key (at most 8192 characters); paste only the key') },
      { error: (issue) => (issue.code === 'unrecognized_keys' ? 'unknown fields: rotateKey takes only connectionId and apiKey' : undefined) },
    ),
    ConnectionOnly,
  ),
  /** Checks the credential works without revealing it: an OAuth token refresh, or the provider's test request for a key. */
  'credentials.test': call(z.object({ connectionId: ConnectionId }), ConnectionCheck),
  /** The OAuth clients set up in the app (not those from oauth-providers.json). */
  'credentials.oauthClients': call(z.object({}), z.array(OAuthClientInfo)),
  /** Adds or edits an OAuth client; it can be connected with at once. */
  'credentials.saveOAuthClient': call(SaveOAuthClientRequest, OAuthClientInfo),
  /** Removes an OAuth client with no live connection; false when there was none. */
  'credentials.removeOAuthClient': call(z.object({ id: ProviderId }), z.object({ removed: z.boolean() })),
  /** Sets the client id (and optional secret) of a built-in OAuth provider (GitHub, Google); it can be connected with at once. */
  'credentials.configureBuiltInClient': call(ConfigureBuiltInClientRequest, BuiltInClientInfo),
  /** Progress of every connect flow started from now on. */
  'credentials.flowEvents': stream(z.object({}), FlowEvent),
  /**
   * credentials.list, live: a connection added, refreshed, failed, revoked or disconnected, or an agent's handle to it
   * issued or ended, comes as that connection again (or its removal, once it is no longer listed).
   */
  'credentials.watch': liveList(z.object({ includeDisconnected: z.boolean().optional() }), ConnectionInfo, (connection) => connection.id),
};
