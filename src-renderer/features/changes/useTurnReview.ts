import { useCallback, useEffect, useRef, useState } from 'react';
import type { ChangedFile, FileDiff, SkippedFile } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { takePrefetchedReview, type PrefetchedReview } from '../../ui/changes/reviewPrefetch';
import { errorMessage } from '../../ui/errorMessage';
import { pickFile } from './fileSummary';

type Load<T> = { kind: 'loading' } | { kind: 'ready'; value: T } | { kind: 'failed'; message: string };

export interface TurnReview {
  files: Load<{ files: ChangedFile[]; skipped: SkippedFile[] }>;
  selected: string | null;
  select(path: string): void;
  diff: Load<FileDiff> | null;
  /** What a verdict is being given on ("file" or a hunk's index), so its buttons wait; null when none is. */
  pending: 'file' | number | null;
  /** The host's answer when a verdict failed, shown until the next one. */
  actionError: string | null;
  verdict(verdict: 'accepted' | 'rejected', hunk?: number): Promise<void>;
  reload(): void;
}

/**
 * A turn's review: its files (from changes.files), the selected file's diff (changes.diff), and verdicts
 * (changes.verdict), whose answer, the file's diff with its new verdicts, replaces what is shown.
 */
export function useTurnReview(turnId: string): TurnReview {
  const client = useConnection((s) => s.client);
  const [files, setFiles] = useState<TurnReview['files']>({ kind: 'loading' });
  const [selected, setSelected] = useState<string | null>(null);
  const [diff, setDiff] = useState<TurnReview['diff']>(null);
  const [pending, setPending] = useState<TurnReview['pending']>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [generation, setGeneration] = useState(0);
  // What the badge asked for while the pointer was on it: used for the first load only, and asked again if it failed.
  const prefetched = useRef<PrefetchedReview | null | undefined>(undefined);
  if (prefetched.current === undefined) prefetched.current = takePrefetchedReview(turnId);

  useEffect(() => {
    if (!client) return;
    let live = true;
    setFiles({ kind: 'loading' });
    const early = generation === 0 ? prefetched.current?.files : undefined;
    const asked = early ? early.catch(() => client.call('changes.files', { turnId })) : client.call('changes.files', { turnId });
    asked.then(
      (value) => {
        if (!live) return;
        setFiles({ kind: 'ready', value });
        setSelected((wanted) => pickFile(value.files, wanted));
      },
      (e: unknown) => live && setFiles({ kind: 'failed', message: errorMessage(e) }),
    );
    return () => {
      live = false;
    };
  }, [client, turnId, generation]);

  useEffect(() => {
    if (!client || selected === null) return;
    let live = true;
    setDiff({ kind: 'loading' });
    const ask = () => client.call('changes.diff', { turnId, path: selected });
    const early = generation === 0 ? prefetched.current?.firstDiff : undefined;
    if (prefetched.current) prefetched.current.firstDiff = Promise.resolve(null);
    const asked = early ? early.then((diff) => (diff?.file.path === selected ? diff : ask()), ask) : ask();
    asked.then(
      (value) => live && setDiff({ kind: 'ready', value }),
      (e: unknown) => live && setDiff({ kind: 'failed', message: errorMessage(e) }),
    );
    return () => {
      live = false;
    };
  }, [client, turnId, selected, generation]);

  const verdict = useCallback(
    async (verdict: 'accepted' | 'rejected', hunk?: number): Promise<void> => {
      if (!client || selected === null || pending !== null) return;
      setPending(hunk ?? 'file');
      setActionError(null);
      try {
        const answer = await client.call('changes.verdict', { turnId, path: selected, verdict, ...(hunk === undefined ? {} : { hunk }) });
        setDiff({ kind: 'ready', value: answer });
        // The file list shows each file's verdict: the answer carries the file's new one.
        setFiles((current) =>
          current.kind === 'ready'
            ? { kind: 'ready', value: { ...current.value, files: current.value.files.map((f) => (f.path === answer.file.path ? answer.file : f)) } }
            : current,
        );
      } catch (e) {
        setActionError(errorMessage(e));
      } finally {
        setPending(null);
      }
    },
    [client, turnId, selected, pending],
  );

  return {
    files,
    selected,
    select: setSelected,
    diff,
    pending,
    actionError,
    verdict,
    reload: useCallback(() => setGeneration((g) => g + 1), []),
  };
}
