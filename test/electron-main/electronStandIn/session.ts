import { requireReady } from './appState';
import { Protocol, protocolState } from './protocol';

type PermissionRequestHandler = (
  contents: unknown,
  permission: string,
  callback: (granted: boolean) => void,
  details: { requestingUrl: string; isMainFrame: boolean },
) => void;
type PermissionCheckHandler = (
  contents: unknown,
  permission: string,
  requestingOrigin: string,
  details: { requestingUrl?: string; isMainFrame: boolean },
) => boolean;

/** Electron's Session, as far as the shell uses it: its protocol and its permission handlers (kept for tests to ask). */
export class Session {
  readonly protocol: Protocol;
  permissionRequestHandler: PermissionRequestHandler | null = null;
  permissionCheckHandler: PermissionCheckHandler | null = null;
  devicePermissionHandler: ((details: unknown) => boolean) | null = null;

  constructor(protocol = new Protocol()) {
    this.protocol = protocol;
  }

  setPermissionRequestHandler(handler: PermissionRequestHandler | null): void {
    this.permissionRequestHandler = handler;
  }

  setPermissionCheckHandler(handler: PermissionCheckHandler | null): void {
    this.permissionCheckHandler = handler;
  }

  setDevicePermissionHandler(handler: ((details: unknown) => boolean) | null): void {
    this.devicePermissionHandler = handler;
  }

  /** Stand-in only: what a permission request gets (no handler: Electron grants it). */
  requestPermission(permission: string, details: { requestingUrl: string; isMainFrame: boolean }): Promise<boolean> {
    const handler = this.permissionRequestHandler;
    if (!handler) return Promise.resolve(true);
    return new Promise((resolve) => handler(null, permission, resolve, details));
  }
}

const defaultSession = new Session(protocolState.defaultProtocol);

/** Electron's `session` module. Electron 45 refuses the default session before ready; so does this. */
export const session = {
  get defaultSession(): Session {
    requireReady('session.defaultSession');
    return defaultSession;
  },
};
