import { useEffect } from 'react';
import { AgentsView } from '../features/agents/AgentsView';
import { useAgentList } from '../features/agents/useAgentList';
import { Attention } from '../features/attention/Attention';
import { ReviewHost } from '../features/changes/ReviewDialog';
import { ConnectionsView } from '../features/connections/ConnectionsView';
import { LedgerView } from '../features/ledger/LedgerView';
import { CommandPalette } from '../features/palette/CommandPalette';
import { SessionSidebar } from '../features/sessions/SessionSidebar';
import { useSessionsSync } from '../features/sessions/useSessionsSync';
import { HostDownBanner } from '../features/status/HostDownBanner';
import { StatusBar } from '../features/status/StatusBar';
import { SessionPanels } from './SessionPanels';
import { useConnection } from '../bridge/connectionStore';
import { useGlobalShortcuts } from './useGlobalShortcuts';
import { usePaletteActions } from './paletteActions';
import { useRunEndNotifications } from './useRunEndNotifications';
import { ViewPanel } from './ViewPanel';
import { ViewTabs } from './ViewTabs';
import { useView } from '../ui/viewStore';
import { useSessions } from '../ui/sessionsStore';
import { warmUpScreensWhenIdle } from '../ui/screen/warmUpScreens';

/** The window: sessions on the left, the chosen view in the middle, the host's state along the bottom. */
export function App() {
  useSessionsSync();
  // The installed agents, for the session view's launcher and the palette, whether or not the Agents view was opened.
  useAgentList();
  useGlobalShortcuts();
  useRunEndNotifications();
  const view = useView((s) => s.view);
  // Once the session list is on screen, the first terminal or run card's one-time costs are paid while nobody waits.
  const sessionsLoaded = useSessions((s) => s.loaded);
  useEffect(() => {
    if (sessionsLoaded) warmUpScreensWhenIdle();
  }, [sessionsLoaded]);
  const paletteActions = usePaletteActions();
  // A host that was connected and is gone: every control is off until it is back (nothing could reach it).
  const hostDown = useConnection((s) => s.status === 'reconnecting');

  return (
    <div className={`app-shell${hostDown ? ' host-offline' : ''}`}>
      <HostDownBanner />
      <Attention />
      <fieldset className="host-gate" disabled={hostDown} data-testid="host-gate">
        <SessionSidebar />
        <main className="main-area">
          <ViewTabs />
          {/* The other views' panels take focus (WAI-ARIA tab panels): a view that scrolls with nothing focusable in it
              (Connections without a keychain, any view while the host is gone) still scrolls from the keyboard. */}
          <ViewPanel view="session" shown={view === 'session'} focusable={false}>
            <SessionPanels />
          </ViewPanel>
          <ViewPanel view="agents" shown={view === 'agents'} focusable>
            <AgentsView />
          </ViewPanel>
          <ViewPanel view="ledger" shown={view === 'ledger'} focusable>
            <LedgerView />
          </ViewPanel>
          <ViewPanel view="connections" shown={view === 'connections'} focusable>
            <ConnectionsView />
          </ViewPanel>
        </main>
      </fieldset>
      <StatusBar />
      <ReviewHost />
      <CommandPalette actions={paletteActions} />
    </div>
  );
}
