import type { KeyboardEvent } from 'react';
import { WaitingTabBadge } from '../features/attention/WaitingTabBadge';
import { WaitingQuestionsBadge } from '../features/goal/WaitingQuestionsBadge';
import { useView, type MainView } from '../ui/viewStore';

const tabs: { view: MainView; label: string; shortcut?: string }[] = [
  { view: 'session', label: 'Session' },
  { view: 'agents', label: 'Agents' },
  { view: 'ledger', label: 'Ledger', shortcut: 'Control+Shift+L' },
  { view: 'connections', label: 'Connections' },
];

/** Session / Agents / Ledger / Connections switch, a WAI-ARIA tab list: Tab reaches the active tab, arrows move between tabs. */
export function ViewTabs() {
  const view = useView((s) => s.view);
  const setView = useView((s) => s.setView);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>): void {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    event.preventDefault();
    const index = tabs.findIndex((t) => t.view === view);
    const next = tabs[(index + (event.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length];
    setView(next.view);
    document.getElementById(`tab-${next.view}`)?.focus();
  }

  return (
    <div className="view-tabs" role="tablist" aria-label="Views" onKeyDown={onKeyDown}>
      {tabs.map((tab) => (
        <button
          key={tab.view}
          type="button"
          role="tab"
          id={`tab-${tab.view}`}
          data-testid={`tab-${tab.view}`}
          aria-selected={view === tab.view}
          aria-controls={`panel-${tab.view}`}
          aria-keyshortcuts={tab.shortcut}
          tabIndex={view === tab.view ? 0 : -1}
          onClick={() => setView(tab.view)}
        >
          {tab.label}
          {tab.view === 'session' && <WaitingTabBadge />}
          {tab.view === 'session' && <WaitingQuestionsBadge />}
        </button>
      ))}
    </div>
  );
}
