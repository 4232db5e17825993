import { shell, type Session, type WebContents } from 'electron';
import { isSafeExternalUrl } from './externalLinks';

/**
 * No navigation, no new windows, no <webview>, for every web contents the app ever creates. The page is a
 * single-page app that never needs to leave app://; an http(s) link opened in a new window goes to the system
 * browser instead, anything else is dropped.
 */
export function hardenWebContents(contents: WebContents): void {
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-frame-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (isSafeExternalUrl(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
}

/** Camera, microphone, notifications, geolocation, HID, USB, serial, clipboard reads...: all refused. */
export function denyAllPermissions(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
}
