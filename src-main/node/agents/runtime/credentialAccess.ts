import type { ConsentEngine } from '../../consent/consentEngine';
import type { CredentialHandles } from '../../vault/credentialHandles';
import { parseOAuthCapability } from '../../vault/credentialHandles';

/** What the runtime needs of the host's CredentialServices to hand an agent a connection through the proxy. */
export interface AgentCredentialBroker {
  connections: { handles: Pick<CredentialHandles, 'issue' | 'dropProxyKey' | 'endWithRun'> };
  proxyEnvFor(handle: string): Promise<Record<string, string>>;
  proxyBridge(): Promise<{ port: number; socketPath: string }>;
}

/** One declared `oauth:<provider>.<scope>` capability the user granted and a connection serves. */
export interface ProxiedConnection {
  capability: string;
  provider: string;
  /** The connection the handle was issued on (its per-connection settings, e.g. llm-models.json). */
  connectionId: string;
  /** proxyEnvFor's variables: the provider's base URL on the proxy and a dummy key bound to the handle. */
  env: Record<string, string>;
  /** The proxy's origin and dummy key as one endpoint (what a host-side client of the agent uses). */
  endpoint: { baseUrl: string; apiKey: string };
}

export interface ProxyAccess {
  connections: ProxiedConnection[];
  /** All of the connections' variables together (a later capability's variable of the same name wins). */
  env: Record<string, string>;
  /** The proxy's bridge for LaunchPolicy.localServices; null when no connection was granted. */
  bridge: { port: number; socketPath: string } | null;
  /** For the run's log card: what was granted or why not (variable names only, never a key). */
  notes: string[];
}

export interface ProxyAccessRequest {
  agentId: string;
  sessionId: string;
  /** The manifest's capabilities; only the oauth: ones are looked at. */
  capabilities: readonly string[];
  consent: Pick<ConsentEngine, 'ask'>;
  credentials: AgentCredentialBroker | undefined;
  /** The run's stop signal: a prompt still open when the run ends is withdrawn, and the dummy keys end with the run. */
  signal: AbortSignal;
}

/** How long the launch asks a connection grant for; the user's card decides the real length. */
const GRANT_DURATION_S = 60 * 60;

/**
 * Credentials for an agent that runs outside the WASM host calls (a native program, or the host's own LLM client):
 * for each `oauth:<provider>.<scope>` capability its manifest declares, asks the consent engine (no card when a live
 * grant already covers it), issues a handle bound to the agent, the session and that grant, and turns it into the
 * credential proxy's variables. The agent only ever holds the dummy key: the proxy swaps in the real one, and ends
 * it with the grant, or with the run, whichever comes first. An "Allow once" covers the whole run (the handle issued
 * for it spends the grant and ends with the run); the next run asks again. A declined grant or a missing connection is not an error: the agent runs without it (the
 * spec's fallback path), and the notes say why.
 */
export async function proxyAccessFor(request: ProxyAccessRequest): Promise<ProxyAccess> {
  const access: ProxyAccess = { connections: [], env: {}, bridge: null, notes: [] };
  const declared = request.capabilities.filter((capability) => capability.startsWith('oauth:'));
  if (declared.length === 0) return access;
  if (!request.credentials) {
    access.notes.push(`declares ${declared.join(', ')}, but this host has no credential services: runs without them`);
    return access;
  }
  for (const capability of declared) {
    const parsed = parseOAuthCapability(capability);
    if (!parsed) continue;
    const outcome = await request.consent.ask({
      agentId: request.agentId,
      sessionId: request.sessionId,
      capability,
      reason: `"${request.agentId}" declares ${capability}: it reaches ${parsed.provider} through the app's credential proxy and never sees the key`,
      durationS: GRANT_DURATION_S,
      signal: request.signal,
    });
    if (outcome.decision !== 'allow') {
      access.notes.push(`${capability} not granted (${outcome.reason}): runs without it`);
      continue;
    }
    const { handles } = request.credentials.connections;
    let issued: string | undefined;
    try {
      // "Allow once" is spent by this issue and covers every request of this run (and no other): the handle is the
      // run's own and ends with it, below.
      const { handle, record } = handles.issue({ agentId: request.agentId, sessionId: request.sessionId, capability });
      issued = handle;
      const env = await request.credentials.proxyEnvFor(handle);
      const endpoint = endpointOf(env);
      access.connections.push({ capability, provider: parsed.provider, connectionId: record.connectionId, env, endpoint });
      // The key is this run's: once it ends, nothing (a leftover process, someone who read the log) can use it.
      const endRun = () => {
        handles.dropProxyKey(endpoint.apiKey);
        handles.endWithRun(handle);
      };
      if (request.signal.aborted) endRun();
      else request.signal.addEventListener('abort', endRun, { once: true });
      Object.assign(access.env, env);
      const length = record.once ? ' (allowed once: for this run only)' : '';
      access.notes.push(`${capability}${length}: ${Object.keys(env).join(' and ')} point at the credential proxy (the agent holds a dummy key only)`);
    } catch (error) {
      // A handle issued for this run but not handed over (the proxy failed to start) ends here, not with the grant.
      if (issued !== undefined) handles.endWithRun(issued);
      const hint = typeof (error as { hint?: unknown }).hint === 'string' ? `; ${(error as { hint: string }).hint}` : '';
      access.notes.push(`${capability} granted, but no connection can serve it: ${(error as Error).message}${hint}`);
    }
  }
  if (access.connections.length > 0) access.bridge = await request.credentials.proxyBridge();
  return access;
}

/** proxyEnvFor gives two variables whatever their names: the base URL on the proxy and the dummy key. */
function endpointOf(env: Record<string, string>): { baseUrl: string; apiKey: string } {
  const values = Object.values(env);
  const baseUrl = values.find((value) => /^https?:\/\//.test(value));
  const apiKey = values.find((value) => !/^https?:\/\//.test(value));
  if (!baseUrl || !apiKey) throw new Error('the credential proxy gave no base URL and key for this connection');
  return { baseUrl, apiKey };
}
