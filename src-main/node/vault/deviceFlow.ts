import { setTimeout as sleep } from 'node:timers/promises';
import * as oauth from 'oauth4webapi';
import { asFlowError, requestedScopes, type OAuthEndpoints } from './authorizationServer';
import { OAuthFlowError } from './vaultErrors';

/** What the user is shown: the code to type at the address. */
export interface DeviceCodePrompt {
  userCode: string;
  verificationUri: string;
  /** The address with the code filled in, when the provider offers one (a QR code, a one-click link). */
  verificationUriComplete: string | null;
  /** When the code stops working (ms since the epoch). */
  expiresAt: number;
  /** Seconds between polls, as the provider asked (RFC 8628 §3.2; 5 when it did not say). */
  intervalS: number;
}

/** Each poll's answer while waiting for the user. */
export type DeviceFlowProgress = { kind: 'pending'; polls: number } | { kind: 'slow_down'; intervalS: number; polls: number };

export interface DeviceFlow {
  prompt: DeviceCodePrompt;
  /** Settles with the tokens once the user approves; rejects with OAuthFlowError on denial, expiry or cancellation. */
  tokens: Promise<oauth.TokenEndpointResponse>;
}

/** RFC 8628 §3.5: after slow_down, every later poll waits this much longer. */
export const SLOW_DOWN_STEP_S = 5;
const DEFAULT_INTERVAL_S = 5;
const LOCAL_EXPIRY_MARGIN_S = 5;

/**
 * RFC 8628 device authorization: asks for a user code, then polls the token endpoint at the interval the provider
 * set, adding 5 s for every slow_down, until the user approves (tokens), denies (access_denied), the code runs out
 * (expired_token, or its expires_in passed), or `signal` cancels it.
 */
export async function startDeviceFlow(
  endpoints: OAuthEndpoints,
  scopes: readonly string[],
  options: { signal: AbortSignal; onProgress?: (progress: DeviceFlowProgress) => void; now?: () => number },
): Promise<DeviceFlow> {
  const { provider, as, client, clientAuth, requestOptions } = endpoints;
  const now = options.now ?? Date.now;
  if (!as.device_authorization_endpoint) throw new OAuthFlowError('unsupported', `${provider.name} does not offer the device flow; connect through the browser instead`);
  let answer: oauth.DeviceAuthorizationResponse;
  try {
    const response = await oauth.deviceAuthorizationRequest(as, client, clientAuth, { scope: requestedScopes(provider, scopes) }, { ...requestOptions, signal: options.signal });
    answer = await oauth.processDeviceAuthorizationResponse(as, client, response);
  } catch (error) {
    throw asFlowError(provider, 'device code request', error);
  }
  const prompt: DeviceCodePrompt = {
    userCode: answer.user_code,
    verificationUri: answer.verification_uri,
    verificationUriComplete: answer.verification_uri_complete ?? null,
    expiresAt: now() + answer.expires_in * 1000,
    intervalS: typeof answer.interval === 'number' && answer.interval > 0 ? answer.interval : DEFAULT_INTERVAL_S,
  };
  const tokens = poll(endpoints, answer.device_code, prompt, options.signal, options.onProgress ?? (() => {}), now);
  // The caller may attach its handlers later; an early rejection must not count as unhandled meanwhile.
  tokens.catch(() => {});
  return { prompt, tokens };
}

async function poll(
  endpoints: OAuthEndpoints,
  deviceCode: string,
  prompt: DeviceCodePrompt,
  signal: AbortSignal,
  onProgress: (progress: DeviceFlowProgress) => void,
  now: () => number,
): Promise<oauth.TokenEndpointResponse> {
  const { provider, as, client, clientAuth, requestOptions } = endpoints;
  let intervalS = prompt.intervalS;
  for (let polls = 1; ; polls++) {
    try {
      await sleep(intervalS * 1000, undefined, { signal });
    } catch {
      throw new OAuthFlowError('cancelled', 'the device flow was cancelled');
    }
    // The provider's expired_token is the answer that counts (its clock decides); this bound only ends the loop
    // against a server that never says it, one interval plus a margin after the code's announced expiry.
    if (now() >= prompt.expiresAt + (intervalS + LOCAL_EXPIRY_MARGIN_S) * 1000) throw expired(provider.name);
    try {
      const response = await oauth.deviceCodeGrantRequest(as, client, clientAuth, deviceCode, { ...requestOptions, signal });
      return await oauth.processDeviceCodeResponse(as, client, response);
    } catch (error) {
      if (signal.aborted) throw new OAuthFlowError('cancelled', 'the device flow was cancelled');
      if (!(error instanceof oauth.ResponseBodyError)) throw asFlowError(provider, 'device code poll', error);
      switch (error.error) {
        case 'authorization_pending':
          onProgress({ kind: 'pending', polls });
          continue;
        case 'slow_down':
          intervalS += SLOW_DOWN_STEP_S;
          onProgress({ kind: 'slow_down', intervalS, polls });
          continue;
        case 'expired_token':
          throw expired(provider.name, error);
        case 'access_denied':
          throw new OAuthFlowError('access_denied', `the sign-in to ${provider.name} was denied; nothing was connected`, { cause: error });
        default:
          throw asFlowError(provider, 'device code poll', error);
      }
    }
  }
}

function expired(name: string, cause?: unknown): OAuthFlowError {
  return new OAuthFlowError('expired_token', `the code for ${name} ran out before it was approved; start the connection again for a new code`, cause ? { cause } : undefined);
}
