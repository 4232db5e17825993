import type { ChangeTurn, TurnSource, Verdict } from '../../../src-preload/contract';

/** The turn a card shows, by what made it: a conversation's prompt (id and seq), a run, a task (its latest attempt). */
export function findTurn(turns: readonly ChangeTurn[], source: TurnSource): ChangeTurn | null {
  let found: ChangeTurn | null = null;
  for (const turn of turns) {
    if (turn.source.kind !== source.kind || turn.source.id !== source.id) continue;
    if (source.seq !== undefined && turn.source.seq !== source.seq) continue;
    // A task can be attempted again: the latest attempt is what its row shows.
    if (!found || turn.startedAt >= found.startedAt) found = turn;
  }
  return found;
}

/** "1 file changed", "3 files changed", "changing files…" while the turn runs. */
export function filesChangedText(turn: ChangeTurn): string {
  if (turn.endedAt === null) return 'changing files…';
  if (turn.filesChanged === 0) return 'no files changed';
  return turn.filesChanged === 1 ? '1 file changed' : `${turn.filesChanged} files changed`;
}

export const verdictWords: Record<Verdict, string> = {
  pending: 'to review',
  accepted: 'accepted',
  rejected: 'rejected',
  mixed: 'partly rejected',
};
