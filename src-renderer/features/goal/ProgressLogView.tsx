import type { ProgressEntry } from '../../../src-preload/contract';
import { useFollowBottom } from '../../ui/useFollowBottom';
import { timeOfDay } from './goalFormat';

/**
 * log_progress lines, oldest at the top, live. The newest stays in view while the user is at the bottom; scrolling up
 * to read stops the following until they scroll back down.
 */
export function ProgressLogView({ entries }: { entries: readonly ProgressEntry[] }) {
  const follow = useFollowBottom<HTMLOListElement>(entries);

  return (
    <section className="goal-progress" aria-label="Progress" data-testid="goal-progress">
      <div className="goal-section-head">
        <h4>Progress</h4>
        <span className="muted">{entries.length} lines</span>
      </div>
      {entries.length === 0 ? (
        <p className="muted empty" data-testid="goal-progress-empty">
          Nothing logged yet. The orchestrator and its agents report here while a run goes on.
        </p>
      ) : (
        <ol
          ref={follow.ref}
          className="goal-progress-list"
          role="log"
          aria-live="polite"
          tabIndex={0}
          onScroll={follow.onScroll}
        >
          {entries.map((entry, index) => (
            <li key={index} className={`goal-progress-line goal-progress-${entry.level}`} data-testid="goal-progress-line" data-level={entry.level}>
              <time className="muted" dateTime={new Date(entry.ts).toISOString()}>
                {timeOfDay(entry.ts)}
              </time>
              <span className="goal-progress-level">{entry.level}</span>
              <span className="goal-progress-message">{entry.message}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
