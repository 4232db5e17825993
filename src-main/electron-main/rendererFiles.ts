import { extname, join, sep } from 'node:path';
import { contentTypeFor } from '../server/contentTypes';
import { APP_HOST, APP_SCHEME } from './rendererOrigin';

export { contentTypeFor };

/** What an app:// request maps to: a file inside the renderer build, or a refusal with its HTTP status. */
export type RendererFileLookup = { ok: true; file: string; spaFallback: boolean } | { ok: false; status: 400 | 404 | 405; reason: string };

/** True when `file` is `root` itself or lies beneath it (both already absolute and normalized). */
export function isInside(root: string, file: string): boolean {
  const base = root.endsWith(sep) ? root : root + sep;
  return file === root || file.startsWith(base);
}

/**
 * Maps an app:// URL to a file in `rendererDir`. Refuses anything that could leave the folder: encoded `..`,
 * backslashes, NUL bytes, other hosts. Paths without an extension are views of the single-page app and fall back
 * to index.html when no such file exists (the handler decides that), so a reload on any view works.
 * The handler still compares real paths afterwards, so a symlink inside the build cannot point outside it.
 */
export function lookupRendererFile(rendererDir: string, requestUrl: string, method = 'GET'): RendererFileLookup {
  if (method !== 'GET' && method !== 'HEAD') return { ok: false, status: 405, reason: 'method not allowed' };
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return { ok: false, status: 400, reason: 'bad url' };
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return { ok: false, status: 404, reason: 'unknown host' };
  let segments: string[];
  try {
    segments = url.pathname.split('/').map((segment) => decodeURIComponent(segment));
  } catch {
    return { ok: false, status: 400, reason: 'bad path encoding' };
  }
  if (segments.some((s) => s === '..' || s === '.' || s.includes('\\') || s.includes('/') || s.includes('\0') || s.includes(':'))) {
    return { ok: false, status: 400, reason: 'bad path' };
  }
  const relative = segments.filter((s) => s !== '');
  if (relative.length === 0) relative.push('index.html');
  const file = join(rendererDir, ...relative);
  if (!isInside(rendererDir, file)) return { ok: false, status: 400, reason: 'bad path' };
  return { ok: true, file, spaFallback: extname(file) === '' };
}
