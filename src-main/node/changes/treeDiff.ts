import type { ChangedFile } from '../../../src-preload/contract/changes';
import { nulFields, type ShadowGit } from './shadowGit';

export type FileChange = Omit<ChangedFile, 'verdict'>;

/** One entry of `git diff-tree --raw`: both sides' modes and blob ids, for a change of one path. */
export interface TreeEntryChange {
  path: string;
  oldPath?: string;
  status: 'A' | 'M' | 'D' | 'R' | 'T';
  oldMode: string;
  newMode: string;
  oldBlob: string;
  newBlob: string;
}

/** Never an external diff or a textconv: a workspace's .gitattributes must not make git run a command. */
export const NO_COMMANDS = ['--no-ext-diff', '--no-textconv'];

/**
 * The changes between two trees as `git diff-tree -r -z --raw --numstat` reports them: the raw records first (one
 * header field, then one path, or two for a rename), then one numstat record per change.
 */
export async function diffTrees(
  git: ShadowGit,
  fromTree: string,
  toTree: string,
  options: { renames: boolean },
): Promise<{ entries: TreeEntryChange[]; counts: Map<string, { additions: number; deletions: number; binary: boolean }> }> {
  const args = ['diff-tree', '-r', '-z', '--raw', '--numstat', ...NO_COMMANDS, options.renames ? '-M' : '--no-renames', fromTree, toTree];
  const fields = nulFields((await git.run(args)).stdout);
  const entries: TreeEntryChange[] = [];
  const counts = new Map<string, { additions: number; deletions: number; binary: boolean }>();
  let i = 0;
  while (i < fields.length && fields[i].startsWith(':')) {
    const [oldMode, newMode, oldBlob, newBlob, statusField] = fields[i].slice(1).split(' ');
    const status = statusField[0] as TreeEntryChange['status'];
    if (status === 'R' || statusField[0] === 'C') {
      entries.push({ path: fields[i + 2], oldPath: fields[i + 1], status: 'R', oldMode, newMode, oldBlob, newBlob });
      i += 3;
    } else {
      entries.push({ path: fields[i + 1], status, oldMode, newMode, oldBlob, newBlob });
      i += 2;
    }
  }
  while (i < fields.length) {
    const [added, deleted, path] = fields[i].split('\t');
    const binary = added === '-';
    const count = { additions: binary ? 0 : Number(added), deletions: binary ? 0 : Number(deleted), binary };
    if (path === '') {
      // A rename: the old path and the new one follow as fields of their own.
      counts.set(fields[i + 2], count);
      i += 3;
    } else {
      counts.set(path, count);
      i += 1;
    }
  }
  return { entries, counts };
}

const STATUS: Record<TreeEntryChange['status'], FileChange['status']> = { A: 'added', M: 'modified', T: 'modified', D: 'deleted', R: 'renamed' };

/** The files that differ between two trees, renames found as `git diff -M` finds them. */
export async function changedFilesBetween(git: ShadowGit, fromTree: string, toTree: string): Promise<{ files: FileChange[]; entries: TreeEntryChange[] }> {
  const { entries, counts } = await diffTrees(git, fromTree, toTree, { renames: true });
  const files = entries.map((entry): FileChange => {
    const count = counts.get(entry.path) ?? { additions: 0, deletions: 0, binary: false };
    const file: FileChange = { path: entry.path, status: STATUS[entry.status], binary: count.binary, additions: count.additions, deletions: count.deletions };
    if (entry.oldPath !== undefined) file.oldPath = entry.oldPath;
    return file;
  });
  return { files, entries };
}
