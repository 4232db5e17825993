import { appState, requireReady } from './appState';

export type ProtocolHandler = (request: Request) => Response | Promise<Response>;

export interface CustomScheme {
  scheme: string;
  privileges?: Record<string, boolean>;
}

/** Failed requests carry Chromium's net error name, as Electron reports a handler that did not give a Response. */
export class NetError extends Error {}

/**
 * One session's protocol (Electron 45 docs, api/protocol.md, `protocol.handle`): the handler gets a Request and must
 * give a Response or a promise of one; a handler that throws, or gives anything else, fails the request
 * (net::ERR_UNEXPECTED here, as Electron's own protocol.ts does). A scheme can be handled once until unhandled.
 */
export class Protocol {
  private readonly handlers = new Map<string, ProtocolHandler>();

  handle(scheme: string, handler: ProtocolHandler): void {
    requireReady('protocol.handle');
    if (this.handlers.has(scheme)) throw new Error(`Failed to register protocol: ${scheme}`);
    this.handlers.set(scheme, handler);
  }

  unhandle(scheme: string): void {
    this.handlers.delete(scheme);
  }

  isProtocolHandled(scheme: string): boolean {
    return this.handlers.has(scheme);
  }

  /** Stand-in only: what a page's request for `url` gets, as Chromium would ask the handler for it. */
  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const scheme = new URL(url).protocol.slice(0, -1);
    const handler = this.handlers.get(scheme);
    if (!handler) throw new NetError(`net::ERR_UNKNOWN_URL_SCHEME (${url})`);
    let response: unknown;
    try {
      response = await handler(new Request(url, init));
    } catch (error) {
      throw new NetError(`net::ERR_UNEXPECTED: the handler threw: ${String(error)}`);
    }
    if (!(response instanceof Response)) throw new NetError('net::ERR_UNEXPECTED: the handler did not return a Response');
    return response;
  }
}

/** The schemes registered as privileged (only possible before ready), for tests to read. */
export const privilegedSchemes: CustomScheme[] = [];

/** The default session's Protocol; set by session.ts. */
export const protocolState = { defaultProtocol: new Protocol() };

/** Electron's `protocol` module: registerSchemesAsPrivileged, and the default session's protocol. */
export const protocol = {
  registerSchemesAsPrivileged(schemes: CustomScheme[]): void {
    if (appState.ready) throw new Error('protocol.registerSchemesAsPrivileged should be called before app is ready');
    privilegedSchemes.push(...schemes);
  },
  handle: (scheme: string, handler: ProtocolHandler) => protocolState.defaultProtocol.handle(scheme, handler),
  unhandle: (scheme: string) => protocolState.defaultProtocol.unhandle(scheme),
  isProtocolHandled: (scheme: string) => protocolState.defaultProtocol.isProtocolHandled(scheme),
};
