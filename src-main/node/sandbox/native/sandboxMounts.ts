import { lstatSync, readlinkSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, relative } from 'node:path';

/**
 * The filesystem a sandboxed command sees, as bwrap arguments: the system read-only (/usr and the /bin, /lib*
 * links or directories beside it, and a snapshot of only the parts of /etc a program needs), a fresh /proc, /dev
 * and /tmp, an empty home,
 * and the workspace: the only place it can write. The places where secrets live are hidden even inside the
 * workspace (when the workspace is, say, the home directory).
 */

const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/opt'];

/** Where secrets conventionally live, relative to the home directory. */
export const SECRET_HOME_ENTRIES = [
  '.ssh', '.aws', '.gnupg', '.config/gh', '.config/gcloud', '.azure', '.kube', '.docker', '.netrc', '.git-credentials',
  '.npmrc', '.pypirc', '.password-store', '.local/share/keyrings', '.config/op', '.vault-token', '.omniscient-shell',
];

export function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The read-only system: --ro-bind for directories, --symlink for merged-/usr links such as /bin → usr/bin, and the
 * /etc snapshot (etcSnapshot.ts) as /etc.
 */
export function systemMountArgs(etcSnapshot: string): string[] {
  const args: string[] = [];
  for (const dir of SYSTEM_DIRS) {
    if (!exists(dir)) continue;
    const stat = lstatSync(dir);
    if (stat.isSymbolicLink()) args.push('--symlink', readlinkSync(dir), dir);
    else if (stat.isDirectory()) args.push('--ro-bind', dir, dir);
  }
  args.push('--ro-bind', etcSnapshot, '/etc');
  return args;
}

/** The secret places of this user and of the app, as absolute paths. */
export function defaultSecretPaths(appHome?: string): string[] {
  const home = homedir();
  const paths = SECRET_HOME_ENTRIES.map((entry) => join(home, entry));
  if (appHome) paths.push(appHome);
  if (process.env.OMNI_HOME) paths.push(process.env.OMNI_HOME);
  return [...new Set(paths)];
}

/**
 * The arguments that hide each path that exists and would be visible (inside the workspace): an empty directory
 * over a directory, /dev/null over a file.
 */
export function hideArgs(paths: readonly string[], visibleRoots: readonly string[]): string[] {
  const args: string[] = [];
  for (const path of paths) {
    if (!visibleRoots.some((root) => isInside(path, root) && path !== root)) continue;
    let isDir: boolean;
    try {
      isDir = statSync(path).isDirectory();
    } catch {
      continue;
    }
    if (isDir) args.push('--tmpfs', path, '--remount-ro', path);
    else args.push('--ro-bind', '/dev/null', path);
  }
  return args;
}

/** The sandbox's home: an empty tmpfs at the user's home path, unless the workspace is the home or contains it. */
export function homeArgs(workspace: string): { args: string[]; home: string } {
  const home = homedir();
  if (home === '/' || isInside(home, workspace)) return { args: [], home: workspace };
  return { args: ['--tmpfs', home], home };
}

