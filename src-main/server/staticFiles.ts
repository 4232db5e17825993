import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { contentTypeFor } from './contentTypes';

/** Maps a URL path to a file inside `root`, or undefined when the path would leave it. */
export function resolveStaticPath(root: string, urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  const relative = normalize(decoded === '/' ? '/index.html' : decoded).replace(/^([/\\])+/, '');
  const full = join(root, relative);
  return full === root || full.startsWith(root.endsWith(sep) ? root : root + sep) ? full : undefined;
}

/** Serves the renderer build; unknown paths fall back to index.html so a reload on any view still works. */
export async function serveStatic(root: string, urlPath: string, res: ServerResponse, headers: Record<string, string>): Promise<void> {
  const file = resolveStaticPath(root, urlPath);
  if (!file) {
    res.writeHead(400, { 'content-type': 'text/plain' }).end('bad path');
    return;
  }
  let body: Buffer;
  let path = file;
  try {
    body = await readFile(path);
  } catch {
    if (extname(urlPath) !== '') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    path = join(root, 'index.html');
    try {
      body = await readFile(path);
    } catch {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('The UI is not built. Run `npm run build` and reload.');
      return;
    }
  }
  res.writeHead(200, {
    ...headers,
    'content-type': contentTypeFor(path),
    'cache-control': path.endsWith('.html') ? 'no-store' : 'no-cache',
  });
  res.end(body);
}
