import { isRendererUrl } from './rendererOrigin';

/** What Electron tells the permission handlers about a request (kept structural so it is testable without Electron). */
export interface PermissionRequest {
  /** The URL (request handler) or origin (check handler) asking. */
  readonly requestingUrl: string;
  readonly isMainFrame: boolean;
}

/**
 * The permissions the app's page needs: writing text to the clipboard (a terminal's Ctrl+Shift+C), which
 * Chromium asks for as `clipboard-sanitized-write` and refuses silently when the check is denied (Chromium still
 * requires a user gesture for it); and notifications, so an agent waiting for consent or a run that ended reaches
 * the user while the window is in the background (the page asks first; the OS's own settings still apply). Reading
 * the clipboard is not granted: paste goes through the paste event, which needs no permission.
 */
const GRANTED = new Set(['clipboard-sanitized-write', 'notifications']);

/**
 * True only for a permission in GRANTED asked by our own app:// page's top frame. Everything else (camera,
 * microphone, geolocation, clipboard reads, any frame that is not ours) is refused.
 */
export function isPermissionGranted(permission: string, request: PermissionRequest): boolean {
  return GRANTED.has(permission) && request.isMainFrame && isRendererUrl(request.requestingUrl);
}
