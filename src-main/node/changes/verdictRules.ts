import type { Verdict } from '../../../src-preload/contract/changes';

type HunkVerdict = 'pending' | 'accepted' | 'rejected';

/** A file's verdict from its hunks': theirs when they agree, 'mixed' when they differ. */
export function fileVerdictOf(hunks: readonly HunkVerdict[]): Verdict {
  if (hunks.length === 0) return 'pending';
  return hunks.every((v) => v === hunks[0]) ? hunks[0] : 'mixed';
}

/**
 * A turn's verdict from its files': pending until every file has one (a turn still running, or one that changed
 * nothing, stays pending), then theirs when they agree, else 'mixed'.
 */
export function turnVerdictOf(files: readonly Verdict[], filesChanged: number, ended: boolean): Verdict {
  if (!ended || filesChanged === 0 || files.length < filesChanged || files.includes('pending')) return 'pending';
  return files.every((v) => v === files[0]) ? files[0] : 'mixed';
}
