import { HarnessError } from '../harnessError';
import type { TurnEndpoint } from './runTurnOptions';

/** The variables the credential proxy's `proxyEnvFor` sets per provider (docs/credentials.md). */
const ENV_NAMES = {
  'agent-sdk': { baseUrl: 'ANTHROPIC_BASE_URL', apiKey: 'ANTHROPIC_API_KEY' },
  'pi-sdk': { baseUrl: 'OPENAI_BASE_URL', apiKey: 'OPENAI_API_KEY' },
} as const;

/**
 * Where a turn's model requests go: `options.endpoint`, else the provider's pair in `request.env`. Never the
 * host's own environment: the host passes the credential proxy's URL and stand-in key, so a real key that happens
 * to be in the host's env can never be picked up here by accident. Without either, the turn is refused.
 */
export function resolveTurnEndpoint(frontend: 'agent-sdk' | 'pi-sdk', endpoint: TurnEndpoint | undefined, env: Record<string, string>): TurnEndpoint {
  const names = ENV_NAMES[frontend];
  const baseUrl = endpoint?.baseUrl ?? env[names.baseUrl];
  const apiKey = endpoint?.apiKey ?? env[names.apiKey];
  if (baseUrl === undefined || apiKey === undefined || apiKey === '') {
    throw new HarnessError(
      'HARNESS_ENDPOINT_MISSING',
      `a ${frontend} turn needs a model endpoint: pass options.endpoint {baseUrl, apiKey}, or ${names.baseUrl} and ${names.apiKey} in request.env (what the credential proxy's proxyEnvFor gives for the connection)`,
    );
  }
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new HarnessError('HARNESS_ENDPOINT_MISSING', `the ${frontend} endpoint ${JSON.stringify(baseUrl)} is not a URL; expected e.g. http://127.0.0.1:<port>/${frontend === 'agent-sdk' ? 'anthropic' : 'openai'}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new HarnessError('HARNESS_ENDPOINT_MISSING', `the ${frontend} endpoint must be an http(s) URL, not ${url.protocol}`);
  }
  return { baseUrl: baseUrl.replace(/\/+$/, ''), apiKey };
}
