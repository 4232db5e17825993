import { useEffect } from 'react';
import { useConnection } from '../bridge/connectionStore';
import { useGoal } from '../features/goal/goalStore';
import { useSessions } from '../ui/sessionsStore';
import { openTerminal } from '../features/terminals/terminalActions';
import { useReview } from '../ui/changes/reviewStore';
import { useView } from '../ui/viewStore';

/**
 * App-wide keys, caught in the capture phase so they work even while a terminal has focus (a terminal cannot
 * tell Ctrl+Shift+T from Ctrl+T anyway, so the shell loses nothing).
 */
export function useGlobalShortcuts(): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent): void => {
      if (!event.ctrlKey || !event.shiftKey || event.altKey || event.metaKey) return;
      if (event.code === 'KeyT') {
        event.preventDefault();
        event.stopPropagation();
        const client = useConnection.getState().client;
        const { sessions, selectedId } = useSessions.getState();
        const session = sessions.find((s) => s.id === selectedId);
        if (!client || !session || session.status !== 'open') return;
        useView.getState().setView('session');
        void openTerminal(client, session.id).catch(() => undefined);
      } else if (event.code === 'KeyG') {
        event.preventDefault();
        event.stopPropagation();
        const { selectedId } = useSessions.getState();
        if (!selectedId) return;
        const focused = (document.activeElement?.closest('[data-testid="session-goal"]') ?? null) !== null;
        useView.getState().setView('session');
        useGoal.getState().togglePanel(selectedId, focused);
      } else if (event.code === 'KeyD') {
        event.preventDefault();
        event.stopPropagation();
        const { selectedId } = useSessions.getState();
        if (!selectedId) return;
        useView.getState().setView('session');
        useReview.getState().toggleChangesPanel(selectedId);
      } else if (event.code === 'KeyL') {
        event.preventDefault();
        event.stopPropagation();
        const { view, setView } = useView.getState();
        setView(view === 'ledger' ? 'session' : 'ledger');
      }
    };
    window.addEventListener('keydown', onKeyDown, { capture: true });
    return () => window.removeEventListener('keydown', onKeyDown, { capture: true });
  }, []);
}
