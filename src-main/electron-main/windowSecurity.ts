import { shell, type Session, type WebContents } from 'electron';
import { isSafeExternalUrl } from './externalLinks';
import { isPermissionGranted } from './permissionPolicy';

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

/**
 * Camera, microphone, notifications, geolocation, HID, USB, serial, clipboard reads...: all refused. The one
 * exception, clipboard writes from our own page, is permissionPolicy.ts's. Both handlers decide alike: most web APIs
 * check first and only request when the check says no.
 */
export function restrictPermissions(session: Session): void {
  session.setPermissionRequestHandler((_contents, permission, callback, details) =>
    callback(isPermissionGranted(permission, { requestingUrl: details.requestingUrl, isMainFrame: details.isMainFrame })),
  );
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin, details) =>
    isPermissionGranted(permission, { requestingUrl: details.requestingUrl ?? requestingOrigin, isMainFrame: details.isMainFrame }),
  );
  session.setDevicePermissionHandler(() => false);
}
