import type { Secret } from './secret';
import { CredentialRequestError, UnknownProviderError } from './vaultErrors';

/**
 * How a credential goes on an upstream request: `x-api-key: <key>` (Anthropic), `x-goog-api-key: <key>` (the Gemini
 * API: its keys are not OAuth tokens, so a Bearer header is refused) or `Authorization: Bearer <token>` (OpenAI,
 * OAuth access tokens).
 */
export type CredentialPlacement = 'x-api-key' | 'x-goog-api-key' | 'bearer';

/** The environment variables a native agent or CLI reads for this kind of API (see credentialProxy.ts). */
export interface ProxyEnvNames {
  baseUrl: string;
  apiKey: string;
}

interface ProviderBase {
  id: string;
  /** Shown in the Connections view. */
  name: string;
  placement: CredentialPlacement;
  /**
   * Host names the credential may be sent to, exactly (no wildcards): the host's fetch for WASM agents injects it
   * only toward these, and the proxy only forwards there.
   */
  apiDomains: readonly string[];
  /** Where the proxy forwards to; null when each connection names its own (OpenAI-compatible servers). */
  apiBaseUrl: string | null;
  proxyEnv: ProxyEnvNames | null;
}

/** A provider whose credential is an API key the user pastes. Its one scope is `api` (capability `oauth:<id>.api`). */
export interface ApiKeyProvider extends ProviderBase {
  kind: 'api_key';
  /**
   * A cheap, read-only request the Test button makes to check a key without revealing it (listing the models), relative
   * to the API's base URL (or the connection's own); none: the key cannot be checked short of an agent using it.
   */
  testRequest?: { path: string; headers?: Readonly<Record<string, string>> };
}

/** Endpoints written down (GitHub, Google), or an issuer to discover them from (generic OIDC). */
export type OAuthServerConfig =
  | { discovery: true; issuer: string }
  | {
      discovery: false;
      issuer: string;
      authorizationEndpoint: string | null;
      tokenEndpoint: string;
      deviceAuthorizationEndpoint: string | null;
      revocationEndpoint: string | null;
    };

export interface OAuthProvider extends ProviderBase {
  kind: 'oauth';
  server: OAuthServerConfig;
  /** The OAuth client this app is registered as with the provider; null until configured (configureClient). */
  clientId: string | null;
  /**
   * Only for providers that insist on one for installed apps (Google's "Desktop app" clients): such a secret is
   * not confidential (RFC 8252 §8.5), PKCE is what protects the flow.
   */
  clientSecret: string | null;
  /** A client secret kept in the OS keychain (an OAuth client set up in the app), read when a token request needs it. */
  readClientSecret?: () => Promise<Secret<string> | null>;
  flows: readonly ('device' | 'pkce')[];
  /** The browser sign-in's loopback port when the provider insists on a fixed one; null/absent: any free port. */
  redirectPort?: number | null;
  /** Asked for on every connect in addition to the caller's scopes (e.g. offline_access for a refresh token). */
  extraScopes: readonly string[];
  /** Turns a capability's scope (`drive.readonly`) into the provider's own name for it (a Google scope URL). */
  scopeName?: (scope: string) => string;
  /**
   * The token endpoint answers OAuth errors with HTTP 200 (GitHub does: `{"error": "authorization_pending"}` with
   * status 200), where RFC 6749 §5.2 says 400; such answers are read as the errors they are.
   */
  errorsWithStatus200?: boolean;
}

export type Provider = ApiKeyProvider | OAuthProvider;

/** The scope an API-key connection holds: `oauth:anthropic.api` lets an agent use the key. */
export const API_KEY_SCOPE = 'api';

const GOOGLE_SHORT_SCOPES = new Set(['openid', 'email', 'profile']);

function builtInProviders(): Provider[] {
  return [
    {
      kind: 'api_key',
      id: 'anthropic',
      name: 'Anthropic',
      placement: 'x-api-key',
      apiDomains: ['api.anthropic.com'],
      apiBaseUrl: 'https://api.anthropic.com',
      testRequest: { path: '/v1/models', headers: { 'anthropic-version': '2023-06-01' } },
      proxyEnv: { baseUrl: 'ANTHROPIC_BASE_URL', apiKey: 'ANTHROPIC_API_KEY' },
    },
    {
      kind: 'api_key',
      id: 'openai',
      name: 'OpenAI',
      placement: 'bearer',
      apiDomains: ['api.openai.com'],
      apiBaseUrl: 'https://api.openai.com/v1',
      testRequest: { path: '/models' },
      proxyEnv: { baseUrl: 'OPENAI_BASE_URL', apiKey: 'OPENAI_API_KEY' },
    },
    {
      // Any server speaking the OpenAI API (a local Ollama at http://127.0.0.1:11434/v1, vLLM, a gateway): the
      // connection names its base URL, and its host is the only domain the key goes to.
      kind: 'api_key',
      id: 'openai-compatible',
      name: 'OpenAI-compatible endpoint',
      placement: 'bearer',
      apiDomains: [],
      apiBaseUrl: null,
      testRequest: { path: '/models' },
      proxyEnv: { baseUrl: 'OPENAI_BASE_URL', apiKey: 'OPENAI_API_KEY' },
    },
    {
      // The Gemini API with an AI Studio key (what Gemini CLI's GEMINI_API_KEY is); Google sign-in is the `google`
      // OAuth provider below, which serves Google's other APIs.
      kind: 'api_key',
      id: 'gemini',
      name: 'Google Gemini API',
      placement: 'x-goog-api-key',
      apiDomains: ['generativelanguage.googleapis.com'],
      apiBaseUrl: 'https://generativelanguage.googleapis.com',
      testRequest: { path: '/v1beta/models' },
      proxyEnv: { baseUrl: 'GOOGLE_GEMINI_BASE_URL', apiKey: 'GEMINI_API_KEY' },
    },
    {
      // GitHub has no RFC 7009 endpoint (tokens are revoked through its REST API with the app's secret, or by the
      // user at github.com/settings/applications), and its OAuth apps do not rotate refresh tokens.
      kind: 'oauth',
      id: 'github',
      name: 'GitHub',
      placement: 'bearer',
      apiDomains: ['api.github.com', 'uploads.github.com'],
      apiBaseUrl: 'https://api.github.com',
      proxyEnv: null,
      server: {
        discovery: false,
        issuer: 'https://github.com',
        authorizationEndpoint: 'https://github.com/login/oauth/authorize',
        tokenEndpoint: 'https://github.com/login/oauth/access_token',
        deviceAuthorizationEndpoint: 'https://github.com/login/device/code',
        revocationEndpoint: null,
      },
      clientId: null,
      clientSecret: null,
      flows: ['device', 'pkce'],
      extraScopes: [],
      errorsWithStatus200: true,
    },
    {
      kind: 'oauth',
      id: 'google',
      name: 'Google',
      placement: 'bearer',
      apiDomains: ['www.googleapis.com', 'oauth2.googleapis.com', 'gmail.googleapis.com', 'sheets.googleapis.com', 'docs.googleapis.com'],
      apiBaseUrl: 'https://www.googleapis.com',
      proxyEnv: null,
      server: {
        discovery: false,
        issuer: 'https://accounts.google.com',
        authorizationEndpoint: 'https://accounts.google.com/o/oauth2/v2/auth',
        tokenEndpoint: 'https://oauth2.googleapis.com/token',
        deviceAuthorizationEndpoint: 'https://oauth2.googleapis.com/device/code',
        revocationEndpoint: 'https://oauth2.googleapis.com/revoke',
      },
      clientId: null,
      clientSecret: null,
      flows: ['pkce', 'device'],
      extraScopes: [],
      scopeName: (scope) => (GOOGLE_SHORT_SCOPES.has(scope) || scope.includes('://') ? scope : `https://www.googleapis.com/auth/${scope}`),
    },
  ];
}

/** What a generic OIDC provider needs: its issuer (discovered), the client id, and where its API lives. */
export interface OidcProviderInput {
  id: string;
  name: string;
  issuer: string;
  /** Endpoints written down, for a server without OpenID discovery; absent: discovered from the issuer. */
  endpoints?: { authorization: string | null; token: string; deviceAuthorization: string | null; revocation: string | null } | null;
  redirectPort?: number | null;
  clientId: string;
  clientSecret?: string | null;
  readClientSecret?: () => Promise<Secret<string> | null>;
  apiDomains: readonly string[];
  apiBaseUrl?: string | null;
  flows?: readonly ('device' | 'pkce')[];
  /** Default ['offline_access'], so the connection gets a refresh token. */
  extraScopes?: readonly string[];
}

const PROVIDER_ID = /^[a-z][a-z0-9_-]{0,63}$/;

/**
 * The providers the broker knows: built-in API-key providers (Anthropic, OpenAI, OpenAI-compatible, Gemini), GitHub and
 * Google with their endpoints written down, and generic OIDC providers added by issuer. OAuth providers need the
 * client id this app is registered under before they can connect.
 */
export class ProviderRegistry {
  private readonly providers = new Map<string, Provider>();

  constructor(extra: readonly Provider[] = []) {
    for (const provider of [...builtInProviders(), ...extra]) this.providers.set(provider.id, provider);
  }

  get(id: string): Provider {
    const provider = this.providers.get(id);
    if (!provider) throw new UnknownProviderError(id, [...this.providers.keys()]);
    return provider;
  }

  getOAuth(id: string): OAuthProvider {
    const provider = this.get(id);
    if (provider.kind !== 'oauth') throw new CredentialRequestError(`${provider.name} is connected with an API key, not OAuth: use addApiKey`);
    if (!provider.clientId) {
      throw new CredentialRequestError(`${provider.name} needs the OAuth client id this app is registered under with ${provider.name}; configure it (configureClient) first`);
    }
    return provider;
  }

  list(): Provider[] {
    return [...this.providers.values()];
  }

  /** Sets the OAuth client of a built-in provider (GitHub, Google): this app's registration with it. */
  configureClient(id: string, client: { clientId: string; clientSecret?: string | null; readClientSecret?: () => Promise<Secret<string> | null> }): OAuthProvider {
    const provider = this.get(id);
    if (provider.kind !== 'oauth') throw new CredentialRequestError(`${provider.name} takes an API key; it has no OAuth client`);
    if (!client.clientId.trim()) throw new CredentialRequestError('the client id is empty');
    const configured: OAuthProvider = { ...provider, clientId: client.clientId.trim(), clientSecret: client.clientSecret ?? provider.clientSecret };
    // A secret kept in the keychain (set in the Connections view) replaces whatever reader the provider had.
    if (client.readClientSecret) configured.readClientSecret = client.readClientSecret;
    this.providers.set(id, configured);
    return configured;
  }

  /** GitHub and Google: OAuth providers that ship with the app, whose client id is the one thing the user sets. */
  isBuiltInOAuth(id: string): boolean {
    return builtInProviders().some((p) => p.id === id && p.kind === 'oauth');
  }

  /** Takes out a provider added by issuer (its OAuth client was removed in the Connections view). False when there was none. */
  remove(id: string): boolean {
    const provider = this.providers.get(id);
    if (!provider || provider.kind !== 'oauth' || builtInProviders().some((p) => p.id === id)) return false;
    return this.providers.delete(id);
  }

  /** Adds (or replaces) a generic OIDC provider whose endpoints are discovered from its issuer. */
  addOidc(input: OidcProviderInput): OAuthProvider {
    if (!PROVIDER_ID.test(input.id)) throw new CredentialRequestError(`a provider id is lowercase letters, digits, "-" and "_" (got "${input.id}")`);
    const existing = this.providers.get(input.id);
    if (existing && existing.kind !== 'oauth') throw new CredentialRequestError(`"${input.id}" is a built-in API-key provider; choose another id`);
    let issuer: URL;
    try {
      issuer = new URL(input.issuer);
    } catch {
      throw new CredentialRequestError(`the issuer "${input.issuer}" is not a URL; give the https:// URL the provider documents as its issuer`);
    }
    if (issuer.protocol !== 'https:' && !isLoopbackUrl(issuer)) {
      throw new CredentialRequestError(`the issuer must use https:// (plain http is accepted only on this machine, 127.0.0.1 or localhost)`);
    }
    if (input.apiDomains.length === 0) throw new CredentialRequestError('name at least one API domain: the credential is sent nowhere else');
    const provider: OAuthProvider = {
      kind: 'oauth',
      id: input.id,
      name: input.name,
      placement: 'bearer',
      apiDomains: [...input.apiDomains],
      apiBaseUrl: input.apiBaseUrl ?? null,
      proxyEnv: null,
      server: input.endpoints
        ? {
            discovery: false,
            issuer: issuer.href.replace(/\/$/, ''),
            authorizationEndpoint: input.endpoints.authorization,
            tokenEndpoint: input.endpoints.token,
            deviceAuthorizationEndpoint: input.endpoints.deviceAuthorization,
            revocationEndpoint: input.endpoints.revocation,
          }
        : { discovery: true, issuer: issuer.href.replace(/\/$/, '') },
      redirectPort: input.redirectPort ?? null,
      clientId: input.clientId,
      clientSecret: input.clientSecret ?? null,
      ...(input.readClientSecret ? { readClientSecret: input.readClientSecret } : {}),
      flows: input.flows ?? ['device', 'pkce'],
      extraScopes: input.extraScopes ?? ['offline_access'],
    };
    this.providers.set(provider.id, provider);
    return provider;
  }
}

/** http:// is tolerated only toward this machine (a local authorization server, a local model server). */
export function isLoopbackUrl(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return host === '127.0.0.1' || host === 'localhost' || host === '::1';
}
