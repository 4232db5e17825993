import { protocol, type Session } from 'electron';
import { readFile, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { RENDERER_SECURITY_HEADERS } from './contentSecurityPolicy';
import { contentTypeFor, isInside, lookupRendererFile } from './rendererFiles';
import { APP_SCHEME } from './rendererOrigin';

/**
 * Makes app:// a standard, secure scheme so its pages get a real origin, a secure context and the Fetch API.
 * It does NOT bypass CSP and is not CORS-enabled for other origins. Must run before the app is ready.
 */
export function registerAppSchemeAsPrivileged(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
  ]);
}

function refusal(status: number, reason: string): Response {
  return new Response(reason, { status, headers: { ...RENDERER_SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8' } });
}

/** Reads `file` only if its real path (symlinks resolved) is still inside the renderer build. */
async function readInside(realRoot: string, file: string): Promise<Buffer | undefined> {
  try {
    const real = await realpath(file);
    return isInside(realRoot, real) ? await readFile(real) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Serves the renderer build from `rendererDir` on app:// for `session`, with the CSP and the other security
 * headers on every response. Nothing outside the folder is ever read.
 */
export function serveRendererOverAppProtocol(session: Session, rendererDir: string): void {
  const realRoot = realpath(rendererDir).catch(() => rendererDir);
  session.protocol.handle(APP_SCHEME, async (request) => {
    const lookup = lookupRendererFile(rendererDir, request.url, request.method);
    if (!lookup.ok) return refusal(lookup.status, lookup.reason);
    const root = await realRoot;
    let file = lookup.file;
    let body = await readInside(root, file);
    if (!body && lookup.spaFallback) {
      file = join(rendererDir, 'index.html');
      body = await readInside(root, file);
    }
    if (!body) return refusal(404, 'not found');
    return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), {
      status: 200,
      headers: {
        ...RENDERER_SECURITY_HEADERS,
        'content-type': contentTypeFor(file),
        'cache-control': file.endsWith('.html') ? 'no-store' : 'no-cache',
      },
    });
  });
}
