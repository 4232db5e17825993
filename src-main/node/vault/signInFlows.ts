import { randomBytes } from 'node:crypto';
import type * as oauth from 'oauth4webapi';
import { DisposableStore, Emitter, type Disposable } from '../../../src-preload/rpc';
import type { OAuthEndpoints } from './authorizationServer';
import type { Connection } from './connectionStore';
import type { DeviceFlowStarted, FlowEvent, PkceFlowStarted } from './connectionTypes';
import { startDeviceFlow, type DeviceFlowProgress } from './deviceFlow';
import { startPkceFlow } from './pkceFlow';
import type { OAuthProvider } from './providers';
import { CredentialRequestError, OAuthFlowError } from './vaultErrors';

/** What a sign-in asks for: scopes, and the label the connection gets. */
export interface SignInRequest {
  provider: string;
  scopes: string[];
  label?: string;
}

export type SignInKind = 'device' | 'pkce';

/** What the flows need from the connections they end in (connections.ts). */
export interface SignInFlowsOptions {
  now: () => number;
  /** How long a browser sign-in may take before its loopback listener gives up. */
  pkceTimeoutMs: number;
  /** The provider, once checked to offer this flow and the keychain to be there (tokens need somewhere safe to go). */
  oauthProvider(id: string, flow: SignInKind, actor: string): Promise<OAuthProvider>;
  endpointsFor(provider: OAuthProvider, actor: string): Promise<OAuthEndpoints>;
  /** Turns the tokens a finished flow got into a stored connection. */
  connect(provider: OAuthProvider, answer: oauth.TokenEndpointResponse, request: SignInRequest, flow: SignInKind, actor: string): Promise<Connection>;
  /** A `credential.fail` ledger entry. */
  recordFailure(provider: string, step: string, reason: string, message: string, actor: string): void;
}

interface RunningFlow {
  controller: AbortController;
  result: Promise<Connection>;
}

/**
 * The OAuth sign-ins that are under way: device flow (RFC 8628) and browser sign-in with PKCE (RFC 8252). Each runs
 * in the background after its start returns what the user must see; its progress, and how it ended (connected,
 * cancelled, failed), are flow events, and every failure is also a ledger entry.
 */
export class SignInFlows implements Disposable {
  private readonly owner = new DisposableStore();
  private readonly flows = new Map<string, RunningFlow>();
  private readonly events = this.owner.add(new Emitter<FlowEvent>());
  /** Progress of device and browser flows. */
  readonly onDidProgress = this.events.event;

  constructor(private readonly o: SignInFlowsOptions) {}

  /** Returns the code to show; progress and the result come as flow events (and result()). */
  async startDeviceFlow(request: SignInRequest, actor: string): Promise<DeviceFlowStarted> {
    const provider = await this.o.oauthProvider(request.provider, 'device', actor);
    const flowId = newFlowId();
    const controller = new AbortController();
    const endpoints = await this.o.endpointsFor(provider, actor);
    const flow = await startDeviceFlow(endpoints, request.scopes, {
      signal: controller.signal,
      now: this.o.now,
      onProgress: (progress: DeviceFlowProgress) => this.events.fire({ flowId, ...progress }),
    }).catch((error: unknown) => this.failed(provider, 'device_flow', error, actor));
    this.track(flowId, provider, controller, flow.tokens, request, 'device', actor);
    const p = flow.prompt;
    return { flowId, provider: provider.id, userCode: p.userCode, verificationUri: p.verificationUri, verificationUriComplete: p.verificationUriComplete, expiresAt: p.expiresAt, intervalS: p.intervalS };
  }

  /** Returns the URL to open in the system browser; the loopback listener waits for its answer. */
  async startPkce(request: SignInRequest, actor: string): Promise<PkceFlowStarted> {
    const provider = await this.o.oauthProvider(request.provider, 'pkce', actor);
    const flowId = newFlowId();
    const controller = new AbortController();
    const endpoints = await this.o.endpointsFor(provider, actor);
    const flow = await startPkceFlow(endpoints, request.scopes, { signal: controller.signal, timeoutMs: this.o.pkceTimeoutMs }).catch((error: unknown) =>
      this.failed(provider, 'pkce', error, actor),
    );
    this.track(flowId, provider, controller, flow.tokens, request, 'pkce', actor);
    return { flowId, provider: provider.id, authorizeUrl: flow.authorizeUrl, redirectUri: flow.redirectUri, expiresAt: flow.expiresAt };
  }

  /** The connection a flow ends in. */
  result(flowId: string): Promise<Connection> {
    const flow = this.flows.get(flowId);
    if (!flow) return Promise.reject(new CredentialRequestError(`there is no running flow "${flowId}"`));
    return flow.result;
  }

  /** Stops a device flow's polling or a browser flow's listener. False when it had already ended. */
  cancel(flowId: string): boolean {
    const flow = this.flows.get(flowId);
    if (!flow) return false;
    flow.controller.abort();
    return true;
  }

  dispose(): void {
    for (const flow of this.flows.values()) flow.controller.abort();
    this.owner.dispose();
  }

  private track(
    flowId: string,
    provider: OAuthProvider,
    controller: AbortController,
    tokens: Promise<oauth.TokenEndpointResponse>,
    request: SignInRequest,
    flow: SignInKind,
    actor: string,
  ): void {
    const result = tokens
      .then((answer) => this.o.connect(provider, answer, request, flow, actor))
      .then(
        (connection) => {
          this.events.fire({ flowId, kind: 'connected', connectionId: connection.id });
          return connection;
        },
        (error: unknown) => {
          const reason = error instanceof OAuthFlowError ? error.reason : 'failed';
          if (reason === 'cancelled') this.events.fire({ flowId, kind: 'cancelled' });
          else this.events.fire({ flowId, kind: 'failed', reason, message: (error as Error).message });
          this.o.recordFailure(provider.id, flow, reason, (error as Error).message, actor);
          throw error;
        },
      )
      .finally(() => this.flows.delete(flowId));
    result.catch(() => {});
    this.flows.set(flowId, { controller, result });
  }

  private failed(provider: OAuthProvider, step: string, error: unknown, actor: string): never {
    this.o.recordFailure(provider.id, step, error instanceof OAuthFlowError ? error.reason : 'failed', (error as Error).message, actor);
    throw error;
  }
}

function newFlowId(): string {
  return `flow_${randomBytes(9).toString('base64url')}`;
}
