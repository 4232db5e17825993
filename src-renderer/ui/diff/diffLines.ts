export type DiffLineKind = 'file' | 'hunk' | 'added' | 'removed' | 'context' | 'meta';

/** What a unified-diff line is, from its first characters. */
export function diffLineKind(line: string): DiffLineKind {
  if (line.startsWith('+++ ') || line.startsWith('--- ') || line === '+++' || line === '---') return 'file';
  if (line.startsWith('diff ') || line.startsWith('index ') || line.startsWith('new file') || line.startsWith('deleted file') || line.startsWith('\\ ')) return 'meta';
  if (line.startsWith('@@')) return 'hunk';
  if (line.startsWith('+')) return 'added';
  if (line.startsWith('-')) return 'removed';
  return 'context';
}

export interface DiffSummary {
  /** The files the diff touches, by their new name (old name when deleted). */
  files: string[];
  added: number;
  removed: number;
}

function fileName(header: string): string | null {
  const name = header.slice(4).split('\t')[0].trim();
  if (name === '/dev/null') return null;
  return name.replace(/^[ab]\//, '');
}

export function summarizeDiff(lines: readonly string[]): DiffSummary {
  const files: string[] = [];
  let added = 0;
  let removed = 0;
  let oldName: string | null = null;
  for (const line of lines) {
    const kind = diffLineKind(line);
    if (kind === 'added') added++;
    else if (kind === 'removed') removed++;
    else if (kind === 'file') {
      if (line.startsWith('--- ')) oldName = fileName(line);
      else {
        const name = fileName(line) ?? oldName;
        if (name && !files.includes(name)) files.push(name);
        oldName = null;
      }
    }
  }
  return { files, added, removed };
}
