import type { ChangedFile, Contract, FileDiff, SkippedFile } from '../../../src-preload/contract';
import type { RpcClient } from '../../../src-preload/rpc/rpcClient';

export interface PrefetchedReview {
  files: Promise<{ files: ChangedFile[]; skipped: SkippedFile[] }>;
  /** The first file's diff (what the review shows first); null when the turn changed no file. */
  firstDiff: Promise<FileDiff | null>;
}

/**
 * An answer asked for on hover is used only this soon after: a verdict given elsewhere since would not be in it.
 * Within it, the pointer resting on a badge before the click is time the review's two calls no longer add.
 */
const FRESH_MS = 10_000;

const prefetched = new Map<string, { at: number; review: PrefetchedReview }>();

/**
 * Asks for a turn's files and its first file's diff before the review opens (the pointer is on the badge, or the
 * badge has focus), so the review usually has them when it opens. Only for a turn that has ended: a running one's
 * files change until then.
 */
export function prefetchReview(client: RpcClient<Contract>, turnId: string, now = Date.now()): void {
  const hit = prefetched.get(turnId);
  if (hit && now - hit.at < FRESH_MS) return;
  const files = client.call('changes.files', { turnId });
  const firstDiff = files.then(({ files: list }) => (list.length === 0 ? null : client.call('changes.diff', { turnId, path: list[0].path })));
  // A failure is the review's to show, when it opens and asks again; unobserved here, it must not be reported.
  files.catch(() => undefined);
  firstDiff.catch(() => undefined);
  prefetched.set(turnId, { at: now, review: { files, firstDiff } });
}

/** The answers prefetched for a turn, if fresh; each is used once. */
export function takePrefetchedReview(turnId: string, now = Date.now()): PrefetchedReview | null {
  const hit = prefetched.get(turnId);
  prefetched.delete(turnId);
  return hit && now - hit.at < FRESH_MS ? hit.review : null;
}
