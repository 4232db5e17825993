/**
 * Where the window's page comes from: app://omni/, served from dist/renderer by the app:// protocol handler.
 * A custom standard scheme gives the page a real origin of its own; file:// would share one origin with every
 * file on the disk.
 */
export const APP_SCHEME = 'app';
export const APP_HOST = 'omni';
export const RENDERER_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const RENDERER_ENTRY_URL = `${RENDERER_ORIGIN}/index.html`;

/** True when `url` is a page of our own renderer (and not, say, app://other/ or a page that navigated away). */
export function isRendererUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST && parsed.username === '' && parsed.password === '';
}
