import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ShadowGit } from './shadowGit';

/**
 * The store's own config, written whole when the store is created (git init's is replaced). Nothing outside the
 * store configures it: the system and global configs are off (shadowGit.ts), and the workspace's .git is never its
 * GIT_DIR. Why each setting:
 * - gc: snapshots are bare tree ids kept by the changes service in SQLite, no commit or ref holds them, so to git
 *   they are unreachable objects a gc would prune. Auto-gc is off and, should anyone run `git gc` on the store by
 *   hand, unreachable objects never expire.
 * - hooks, fsmonitor, attributes and excludes files: nothing from outside the store runs or changes what is stored.
 * - autocrlf, safecrlf, symlinks: files are stored byte for byte, symlinks as links (never followed).
 * - index version 4 (prefix-compressed paths): a smaller index, which each of a snapshot's git processes reads.
 */
const STORE_CONFIG = `[core]
\trepositoryformatversion = 0
\tfilemode = true
\tbare = true
\tsymlinks = true
\tautocrlf = false
\tsafecrlf = false
\thooksPath = /dev/null
\tfsmonitor = false
\tattributesFile = /dev/null
\texcludesFile = /dev/null
\tquotePath = false
\tlogAllRefUpdates = false
[index]
	version = 4
[gc]
\tauto = 0
\tpruneExpire = never
\treflogExpire = never
\treflogExpireUnreachable = never
[maintenance]
\tauto = false
`;

/**
 * $GIT_DIR/info/attributes outranks every .gitattributes of the workspace, attribute by attribute: whatever the
 * workspace says, no filter (its command could only come from a config, but a `filter.<name>.required` one would
 * fail the snapshot), no end-of-line or encoding conversion (a restore must give back the bytes that were there),
 * no ident expansion, no diff driver (binary detection stays git's own).
 */
const STORE_ATTRIBUTES = '* -text -crlf !eol -filter -ident !working-tree-encoding !diff !merge\n';

/** The host's own state files (.meta) are never part of a snapshot; ls-files also gets an exclude pathspec for it. */
const STORE_EXCLUDE = '/.meta/\n';

/**
 * Creates the shadow store (a bare git dir) if it does not exist yet, and (re)writes the files that keep it safe.
 * A leftover index.lock (the host stopped in the middle of a snapshot) is removed: one host owns the app home
 * (homeLock.ts) and snapshots of a store are serialised, so no live git holds it.
 */
export async function prepareShadowStore(git: ShadowGit, workspace: string): Promise<void> {
  const dir = git.gitDir;
  if (!existsSync(join(dir, 'HEAD'))) {
    await mkdir(dir, { recursive: true });
    await git.run(['init', '--bare', '-q'], { withoutWorkTree: true });
    await rm(join(dir, 'hooks'), { recursive: true, force: true });
    await rm(join(dir, 'description'), { force: true });
  }
  await mkdir(join(dir, 'info'), { recursive: true });
  await writeFile(join(dir, 'config'), STORE_CONFIG);
  await writeFile(join(dir, 'info', 'attributes'), STORE_ATTRIBUTES);
  await writeFile(join(dir, 'info', 'exclude'), STORE_EXCLUDE);
  // For whoever looks at <home>/changes by hand: which workspace this store is of.
  await writeFile(join(dir, 'workspace'), `${workspace}\n`);
  await rm(join(dir, 'index.lock'), { force: true });
}
