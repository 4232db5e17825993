import type { ChangedFile, FileStatus, SkippedFile } from '../../../src-preload/contract';

const statusOrder: FileStatus[] = ['added', 'modified', 'deleted', 'renamed'];

/** "2 added · 1 modified · 1 deleted": how many files of each kind a turn changed, in a fixed order, none left out. */
export function statusCounts(files: readonly ChangedFile[]): string {
  const parts = statusOrder.map((status) => [status, files.filter((f) => f.status === status).length] as const).filter(([, n]) => n > 0);
  return parts.length === 0 ? 'no files changed' : parts.map(([status, n]) => `${n} ${status}`).join(' · ');
}

export const statusLetter: Record<FileStatus, string> = { added: 'A', modified: 'M', deleted: 'D', renamed: 'R' };

/** What the snapshot left out of a file, in words the user can act on. */
export function skippedText(file: SkippedFile): string {
  switch (file.reason) {
    case 'too_large':
      return file.size === undefined ? 'too large to snapshot' : `too large to snapshot (${file.size.toLocaleString()} bytes)`;
    case 'unreadable':
      return 'could not be read';
    case 'special':
      return 'not a regular file (a socket, device or link loop)';
  }
}

/** The file to show first: the one asked for if it is still listed, else the first. */
export function pickFile(files: readonly ChangedFile[], wanted: string | null): string | null {
  if (wanted !== null && files.some((f) => f.path === wanted)) return wanted;
  return files[0]?.path ?? null;
}
