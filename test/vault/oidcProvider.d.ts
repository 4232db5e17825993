// The part of oidc-provider (which ships no types) the vault tests use: the test authorization server.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface KoaContext {
    path: string;
    method: string;
    status: number;
    body: unknown;
  }

  export interface InteractionDetails {
    uid: string;
    params: Record<string, unknown>;
    grantId?: string;
    prompt: { name: string; details: Record<string, unknown> };
  }

  export interface Grant {
    /** Deletes the grant: tokens issued under it (refresh tokens included) stop being accepted. */
    destroy(): Promise<void>;
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  export interface StoredToken {
    consumed?: number;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    use(middleware: (ctx: KoaContext, next: () => Promise<void>) => Promise<void>): void;
    on(event: string, listener: (...args: unknown[]) => void): void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(req: IncomingMessage, res: ServerResponse, result: Record<string, unknown>, options?: { mergeWithLastSubmission?: boolean }): Promise<void>;
    Grant: { new (init: { accountId: string; clientId: string }): Grant; find(id: string): Promise<Grant | undefined> };
    AccessToken: { find(value: string): Promise<StoredToken | undefined> };
    RefreshToken: { find(value: string): Promise<StoredToken | undefined> };
  }
}
