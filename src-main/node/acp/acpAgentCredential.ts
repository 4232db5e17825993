import type { ConsentEngine } from '../consent/consentEngine';
import type { CredentialServices } from '../vault/credentialServices';
import { AcpError } from './acpError';
import type { AcpLaunchRequest } from './acpProcess';
import type { AcpAgentCredential } from './acpSandboxLauncher';

/** The vault providers whose connection can serve each built-in agent, in order of preference. */
const SERVING_PROVIDERS: Readonly<Record<string, { ids: readonly string[]; label: string }>> = Object.freeze({
  claude: { ids: ['anthropic'], label: 'Anthropic (an API key)' },
  codex: { ids: ['openai', 'openai-compatible'], label: 'OpenAI (an API key) or an OpenAI-compatible endpoint' },
  gemini: { ids: ['gemini'], label: 'the Google Gemini API (an API key)' },
});

/** How long a launch's grant lives at most; it is revoked as soon as the agent exits. */
const GRANT_SECONDS = 24 * 60 * 60;

/** Who an ACP agent is to the consent engine: its grants, handles and ledger entries carry this id. */
export function acpConsentAgentId(agentId: string): string {
  return `acp:${agentId}`;
}

/**
 * The credential an ACP agent gets for a session, for AcpSandboxLauncherOptions.credential: only the vault's proxy
 * (docs/credentials.md). Starting an agent in a session is the user's consent to let it use the provider's connection
 * there, so the host grants `oauth:<provider>.api` to `acp:<agent>` (visible and revocable in the session's grants),
 * issues a handle under it, and hands the launcher the proxy's variables, its bridge and the provider's API hosts. A
 * revoked grant ends the handle (the proxy refuses the dummy key) and, through stillGranted, the egress grant too.
 * Agents without a serving provider (the user's own) get null: no provider variables, no network.
 */
export async function acpAgentCredential(credentials: CredentialServices, consent: ConsentEngine, request: AcpLaunchRequest, actor: string): Promise<AcpAgentCredential | null> {
  const serving = SERVING_PROVIDERS[request.agent.id];
  if (!serving) return null;
  await credentials.vault.ready;
  const status = credentials.connections.status();
  if (!status.available) {
    throw new AcpError('ACP_AGENT_MISSING', `the credential vault is off (${status.problem ?? 'no keychain'}), so ${request.agent.name} has no way to reach its provider. Fix the keychain, connect ${serving.label} in Connections, then start again.`);
  }
  const connected = credentials.connections.list().filter((c) => c.status === 'connected');
  const provider = serving.ids.find((id) => connected.some((c) => c.provider === id && c.scopes.includes('api')));
  if (!provider) throw new AcpError('ACP_AGENT_MISSING', `no connection for ${request.agent.name}: connect ${serving.label} in Connections, then start it again.`);
  const capability = `oauth:${provider}.api`;
  const agentId = acpConsentAgentId(request.agent.id);
  const grant = consent.grant({ agentId, sessionId: request.sessionId, capability, durationS: GRANT_SECONDS, reason: `${request.agent.name} started by the user in this session` }, actor);
  const signal = consent.signalFor(grant.id);
  const release = () => {
    try {
      consent.revoke(grant.id, 'host');
    } catch {
      // already ended
    }
  };
  try {
    const { handle } = credentials.connections.handles.issue({ agentId, sessionId: request.sessionId, capability });
    const env = await credentials.proxyEnvFor(handle);
    const bridge = await credentials.proxyBridge();
    return { env, bridge, apiHosts: credentials.providers.get(provider).apiDomains, stillGranted: () => !signal.aborted, release };
  } catch (error) {
    release();
    throw error;
  }
}
