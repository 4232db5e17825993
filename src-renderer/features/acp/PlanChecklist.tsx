import type { PlanEntry } from './conversationModel';

const statusWords: Record<string, string> = { pending: 'to do', in_progress: 'in progress', completed: 'done' };
const marks: Record<string, string> = { pending: '☐', in_progress: '◐', completed: '☑' };

/** The agent's plan as a checklist; the agent sends it whole each time, and the newest replaces the last. */
export function PlanChecklist({ entries }: { entries: PlanEntry[] }) {
  const done = entries.filter((entry) => entry.status === 'completed').length;
  return (
    <section className="acp-plan" data-testid="acp-plan" aria-label={`Plan: ${done} of ${entries.length} done`}>
      <strong>
        Plan <span className="muted">({done}/{entries.length})</span>
      </strong>
      <ul>
        {entries.map((entry, i) => (
          <li key={i} className={`acp-plan-entry acp-plan-${entry.status}`} data-testid="acp-plan-entry" data-status={entry.status}>
            <span className="acp-plan-mark" role="img" aria-label={statusWords[entry.status] ?? entry.status}>
              {marks[entry.status] ?? '☐'}
            </span>
            <span>{entry.content}</span>
            {entry.status === 'in_progress' && <small className="muted"> (in progress)</small>}
            {entry.priority === 'high' && <small className="acp-priority"> high priority</small>}
          </li>
        ))}
      </ul>
    </section>
  );
}
