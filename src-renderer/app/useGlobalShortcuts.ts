import { useEffect } from 'react';
import { useConnection } from '../bridge/connectionStore';
import { paletteOpeningFor } from '../features/palette/paletteKeys';
import { usePalette } from '../features/palette/paletteStore';
import { useSessions } from '../ui/sessionsStore';
import { openTerminalInSession, toggleChangesPanel, toggleGoalPanel, toggleLedger } from './workspaceActions';

/** A modal dialog other than the palette (a checkpoint question, a review) is up: it keeps the keyboard until it is answered. */
const otherModalOpen = (): boolean => document.querySelector('[aria-modal="true"]:not([data-testid="command-palette"])') !== null;

/**
 * App-wide keys, caught in the capture phase so they work even while a terminal has focus (a terminal cannot
 * tell Ctrl+Shift+T from Ctrl+T anyway, so the shell loses nothing). Ctrl+K is the exception: in a terminal it is the
 * shell's (readline's and nano's kill-line, Emacs's kill), so there the palette opens with Ctrl+Shift+P or F1.
 */
export function useGlobalShortcuts(): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent): void => {
      const opening = paletteOpeningFor(event);
      if (opening === '' && inTerminal(event)) return;
      if (opening !== null) {
        if (otherModalOpen()) return;
        event.preventDefault();
        event.stopPropagation();
        usePalette.getState().show(opening);
        return;
      }
      // The palette is modal: the page behind it does not act on keys meant for it.
      if (usePalette.getState().open) return;
      if (!event.ctrlKey || !event.shiftKey || event.altKey || event.metaKey) return;
      if (event.code === 'KeyT') {
        event.preventDefault();
        event.stopPropagation();
        const client = useConnection.getState().client;
        const { sessions, selectedId } = useSessions.getState();
        const session = sessions.find((s) => s.id === selectedId);
        if (!client || !session || session.status !== 'open') return;
        void openTerminalInSession(client, session.id).catch(() => undefined);
      } else if (event.code === 'KeyG') {
        event.preventDefault();
        event.stopPropagation();
        const { selectedId } = useSessions.getState();
        if (selectedId) toggleGoalPanel(selectedId);
      } else if (event.code === 'KeyD') {
        event.preventDefault();
        event.stopPropagation();
        const { selectedId } = useSessions.getState();
        if (selectedId) toggleChangesPanel(selectedId);
      } else if (event.code === 'KeyL') {
        event.preventDefault();
        event.stopPropagation();
        toggleLedger();
      }
    };
    window.addEventListener('keydown', onKeyDown, { capture: true });
    return () => window.removeEventListener('keydown', onKeyDown, { capture: true });
  }, []);
}

/** Whether the key was typed into a terminal screen (xterm's element, inside the screen's shadow root). */
function inTerminal(event: KeyboardEvent): boolean {
  return event.composedPath().some((node) => node instanceof Element && node.classList.contains('xterm'));
}
