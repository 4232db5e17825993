import { isAbsolute, relative, sep } from 'node:path';
import { realpathSync } from 'node:fs';

/**
 * A path an agent gave (ACP paths are absolute) as a path relative to the workspace, or why it is outside. Only the
 * lexical part is judged here; symbolic links are resolved where the file is opened (WorkspaceFiles).
 */
export function workspaceRelative(path: string, workspace: string): { ok: true; path: string } | { ok: false; reason: string } {
  if (typeof path !== 'string' || path === '' || path.includes('\0')) return { ok: false, reason: 'the path is empty or malformed' };
  if (!isAbsolute(path)) return { ok: false, reason: `"${path}" is not an absolute path (ACP paths are absolute)` };
  for (const root of roots(workspace)) {
    const rel = relative(root, path);
    if (rel === '') return { ok: true, path: '' };
    if (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel)) return { ok: true, path: rel.split(sep).join('/') };
  }
  return { ok: false, reason: `"${path}" is outside the workspace ${workspace}` };
}

function roots(workspace: string): string[] {
  try {
    const real = realpathSync(workspace);
    return real === workspace ? [workspace] : [workspace, real];
  } catch {
    return [workspace];
  }
}
