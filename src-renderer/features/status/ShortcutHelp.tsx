/** The keyboard shortcuts, listed where the user can always find them (status bar, hover or focus for details). */
export const shortcuts: readonly { keys: string; what: string }[] = [
  { keys: 'Ctrl+K / Ctrl+Shift+P / F1', what: 'command palette: switch sessions (Ctrl+K) or run any command (> lists commands only)' },
  { keys: 'Ctrl+Shift+T', what: 'new terminal in the current session' },
  { keys: 'Ctrl+Shift+L', what: 'switch between session and ledger' },
  { keys: 'Ctrl+Shift+G', what: 'open (or fold) the session\'s Goal panel' },
  { keys: 'Ctrl+Shift+D', what: 'open (or fold) the session\'s Changes panel: every turn\'s changes and the rewind timeline' },
  { keys: 'Ctrl+Shift+F', what: 'find in the focused terminal (and leave it: Tab moves on)' },
  { keys: 'Ctrl+Shift+C / V', what: 'copy / paste in a terminal' },
];

export function ShortcutHelp() {
  const summary = shortcuts.map((s) => `${s.keys}: ${s.what}`).join('\n');
  return (
    <span className="shortcut-help" data-tooltip={summary} data-placement="top" tabIndex={0} aria-label={`Keyboard shortcuts. ${summary}`}>
      <kbd>Ctrl+Shift+T</kbd> terminal · <kbd>Ctrl+Shift+L</kbd> ledger · <kbd>Ctrl+Shift+F</kbd> find
    </span>
  );
}
