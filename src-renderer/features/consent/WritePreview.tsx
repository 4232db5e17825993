import { useMemo } from 'react';
import type { ConsentPrompt } from '../../../src-preload/contract';
import { summarizeDiff } from '../../ui/diff/diffLines';
import { DiffView } from '../../ui/diff/DiffView';
import { unifiedDiff } from '../../ui/diff/textDiff';

/** What a write would put in the file: a diff against what is there now, or the whole text of a new file. */
export function WritePreview({ write }: { write: NonNullable<ConsentPrompt['write']> }) {
  const lines = useMemo(() => unifiedDiff(write.path, write.before, write.after), [write]);
  const summary = useMemo(() => summarizeDiff(lines), [lines]);
  return (
    <div className="consent-write" data-testid="consent-write" data-new-file={write.before === null ? 'true' : 'false'}>
      <p className="muted consent-write-note">
        {write.before === null ? 'A new file, with this content:' : 'Changes to the file as it is now:'}
        {write.truncated && ' (cut: the file is longer than the card shows)'}
      </p>
      <DiffView count={lines.length} line={(i) => lines[i]} summary={summary} />
    </div>
  );
}
