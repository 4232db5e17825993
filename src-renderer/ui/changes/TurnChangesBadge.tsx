import { memo } from 'react';
import type { TurnSource } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { prefetchReview } from './reviewPrefetch';
import { useReview } from './reviewStore';
import { filesChangedText, findTurn, verdictWords } from './turnModel';
import { useSessionTurns } from './useSessionTurns';

interface Props {
  sessionId: string;
  /** What made the turn, flat so a card can pass it inline without making the badge draw again. */
  kind: TurnSource['kind'];
  sourceId: string;
  seq?: number;
}

/**
 * "N files changed" for the turn a card shows (an ACP prompt, an agent run, a goal task, a shell run); a click or
 * Enter opens its review. Nothing while the host has no turn for it (nothing was snapshotted, or not yet).
 */
export const TurnChangesBadge = memo(function TurnChangesBadge({ sessionId, kind, sourceId, seq }: Props) {
  const { items } = useSessionTurns(sessionId);
  const openReview = useReview((s) => s.openReview);
  const client = useConnection((s) => s.client);
  const turn = findTurn(items, { kind, id: sourceId, seq });
  if (!turn) return null;
  const text = filesChangedText(turn);
  const reviewed = turn.filesChanged > 0 && turn.verdict !== 'pending';
  const prefetch = (): void => {
    if (client && turn.endedAt !== null && turn.filesChanged > 0) prefetchReview(client, turn.id);
  };
  return (
    <button
      type="button"
      className={`badge turn-changes-badge turn-verdict-${turn.verdict}`}
      data-testid="turn-changes-badge"
      data-turn-id={turn.id}
      data-verdict={turn.verdict}
      data-files={turn.filesChanged}
      title={`Review what this turn changed (${verdictWords[turn.verdict]})`}
      onPointerEnter={prefetch}
      onFocus={prefetch}
      onClick={(event) => {
        event.stopPropagation();
        openReview(sessionId, turn.id);
      }}
    >
      {text}
      {reviewed ? ` · ${verdictWords[turn.verdict]}` : ''}
    </button>
  );
});
