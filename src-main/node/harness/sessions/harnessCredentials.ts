import type { HarnessCliFrontend } from '../../../../src-preload/contract/harness';
import type { ConsentEngine } from '../../consent/consentEngine';
import type { CredentialServices } from '../../vault/credentialServices';
import { HarnessSessionError } from './harnessSessionError';

/** The vault providers whose connection can serve each CLI, in order of preference. */
const SERVING_PROVIDERS: Record<HarnessCliFrontend, { ids: string[]; label: string }> = {
  'claude-code': { ids: ['anthropic'], label: 'Anthropic (an API key)' },
  // An OpenAI-compatible endpoint works for Codex when it speaks the Responses API.
  'codex-cli': { ids: ['openai', 'openai-compatible'], label: 'OpenAI (an API key) or an OpenAI-compatible endpoint' },
};

/** How long a launch's grant lives at most; it is revoked as soon as the CLI ends. */
const GRANT_SECONDS = 24 * 60 * 60;

/** Who a harness session is to the consent engine: its grants, cards and ledger entries carry this id. */
export function harnessAgentId(frontend: HarnessCliFrontend, harnessId: string): string {
  return `harness:${frontend}:${harnessId}`;
}

export interface HarnessCredential {
  /** The proxy's variables: the provider's base URL on 127.0.0.1 and a dummy key bound to the handle. */
  env: Record<string, string>;
  /** For Codex: its model provider entry points here (base_url + env_key). */
  endpoint: { baseUrl: string; envKey: string };
  /** Ends the grant, so the dummy key stops working the moment the CLI is gone. */
  release(): void;
}

/**
 * The credential a harness CLI gets: only the vault's proxy (docs/credentials.md). Starting a session from the UI is
 * the user's consent to let that CLI use the provider's connection in this session, so the host grants
 * `oauth:<provider>.api` to the harness (visible and revocable in the session's grants like any other), issues a
 * handle under it and asks the proxy for the environment. The raw key never leaves the vault.
 */
export async function harnessCredential(
  credentials: CredentialServices,
  consent: ConsentEngine,
  who: { frontend: HarnessCliFrontend; sessionId: string; harnessId: string },
  actor: string,
): Promise<HarnessCredential> {
  const serving = SERVING_PROVIDERS[who.frontend];
  // Right after a host start the keychain may still be opening: wait for its answer rather than report it missing.
  await credentials.vault.ready;
  const status = credentials.connections.status();
  if (!status.available) {
    throw new HarnessSessionError('HARNESS_NO_CONNECTION', `the credential vault is off (${status.problem ?? 'no keychain'}), so ${who.frontend} has no way to reach its provider. Fix the keychain, connect ${serving.label} in Connections, then start again.`);
  }
  const connected = credentials.connections.list().filter((c) => c.status === 'connected');
  const provider = serving.ids.find((id) => connected.some((c) => c.provider === id && c.scopes.includes('api')));
  if (!provider) {
    throw new HarnessSessionError('HARNESS_NO_CONNECTION', `no connection for ${who.frontend}: connect ${serving.label} in Connections, then start the session again.`);
  }
  const capability = `oauth:${provider}.api`;
  const agentId = harnessAgentId(who.frontend, who.harnessId);
  const grant = consent.grant({ agentId, sessionId: who.sessionId, capability, durationS: GRANT_SECONDS, reason: `${who.frontend} session ${who.harnessId} started by the user` }, actor);
  const release = () => {
    try {
      consent.revoke(grant.id, 'host');
    } catch {
      // already ended
    }
  };
  try {
    const { handle } = credentials.connections.handles.issue({ agentId, sessionId: who.sessionId, capability });
    const env = await credentials.proxyEnvFor(handle);
    const baseUrlName = Object.keys(env).find((name) => name.endsWith('_BASE_URL'));
    const keyName = Object.keys(env).find((name) => name.endsWith('_API_KEY'));
    if (!baseUrlName || !keyName) throw new Error(`the proxy gave no base URL / key variables for ${provider}`);
    return { env, endpoint: { baseUrl: env[baseUrlName], envKey: keyName }, release };
  } catch (error) {
    release();
    throw error;
  }
}
