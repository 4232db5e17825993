import type { PlanEntry } from './conversationModel';

const statusWords: Record<string, string> = { pending: 'to do', in_progress: 'in progress', completed: 'done' };

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
            <input type="checkbox" readOnly checked={entry.status === 'completed'} aria-label={`${entry.content}: ${statusWords[entry.status] ?? entry.status}`} tabIndex={-1} />
            <span>{entry.content}</span>
            {entry.status === 'in_progress' && <small className="muted"> (in progress)</small>}
            {entry.priority === 'high' && <small className="acp-priority"> high priority</small>}
          </li>
        ))}
      </ul>
    </section>
  );
}
