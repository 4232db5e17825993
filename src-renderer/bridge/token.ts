const STORAGE_KEY = 'omni.token';

let cached: string | null | undefined;

/**
 * The host's access token. It arrives once in `?token=`; we keep it in sessionStorage (per tab, gone when the tab
 * closes) and strip it from the visible URL so it does not end up in screenshots, history or bookmarks.
 */
export function accessToken(): string | null {
  if (cached !== undefined) return cached;
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    try {
      sessionStorage.setItem(STORAGE_KEY, fromUrl);
    } catch {
      // Storage may be disabled; the token still works for this page's lifetime.
    }
    url.searchParams.delete('token');
    window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
    cached = fromUrl;
    return cached;
  }
  try {
    cached = sessionStorage.getItem(STORAGE_KEY);
  } catch {
    cached = null;
  }
  return cached;
}
