import { AgentsView } from '../features/agents/AgentsView';
import { ReviewHost } from '../features/changes/ReviewDialog';
import { ConnectionsView } from '../features/connections/ConnectionsView';
import { LedgerView } from '../features/ledger/LedgerView';
import { SessionSidebar } from '../features/sessions/SessionSidebar';
import { useSessionsSync } from '../features/sessions/useSessionsSync';
import { StatusBar } from '../features/status/StatusBar';
import { SessionPanels } from './SessionPanels';
import { useGlobalShortcuts } from './useGlobalShortcuts';
import { ViewTabs } from './ViewTabs';
import { useView } from '../ui/viewStore';

/** The window: sessions on the left, the chosen view in the middle, the host's state along the bottom. */
export function App() {
  useSessionsSync();
  useGlobalShortcuts();
  const view = useView((s) => s.view);

  return (
    <div className="app-shell">
      <SessionSidebar />
      <main className="main-area">
        <ViewTabs />
        <div className="view-panel" role="tabpanel" id="panel-session" aria-labelledby="tab-session" hidden={view !== 'session'}>
          <SessionPanels />
        </div>
        <div className="view-panel" role="tabpanel" id="panel-agents" aria-labelledby="tab-agents" hidden={view !== 'agents'}>
          <AgentsView />
        </div>
        <div className="view-panel" role="tabpanel" id="panel-ledger" aria-labelledby="tab-ledger" hidden={view !== 'ledger'}>
          <LedgerView />
        </div>
        <div className="view-panel" role="tabpanel" id="panel-connections" aria-labelledby="tab-connections" hidden={view !== 'connections'}>
          <ConnectionsView />
        </div>
      </main>
      <StatusBar />
      <ReviewHost />
    </div>
  );
}
