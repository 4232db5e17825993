import type { ChangeTurn } from '../../../src-preload/contract';
import { filesChangedText, verdictWords } from '../../ui/changes/turnModel';
import { clockTime } from './formatTime';

/** Every turn of the session, oldest first: who, what, when, how many files, the verdict; each opens its review. */
export function TurnList({ turns, onOpen }: { turns: readonly ChangeTurn[]; onOpen(turnId: string): void }) {
  return (
    <ol className="changes-turns" aria-label="Turns">
      {turns.map((turn) => (
        <li key={turn.id}>
          <button
            type="button"
            className="changes-turn"
            data-testid="changes-turn"
            data-turn-id={turn.id}
            data-source={turn.source.kind}
            data-verdict={turn.verdict}
            title="Open this turn's review"
            onClick={() => onOpen(turn.id)}
          >
            <strong>{turn.agent}</strong>
            <span className="changes-title">{turn.title}</span>
            <time className="muted" dateTime={new Date(turn.startedAt).toISOString()}>
              {clockTime(turn.startedAt)}
            </time>
            <span data-testid="changes-turn-files">{filesChangedText(turn)}</span>
            {turn.filesChanged > 0 && <span className={`badge review-verdict review-verdict-${turn.verdict}`}>{verdictWords[turn.verdict]}</span>}
          </button>
        </li>
      ))}
    </ol>
  );
}
