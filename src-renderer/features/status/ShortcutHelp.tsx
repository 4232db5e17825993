/**
 * The keyboard shortcuts, listed where the user can always find them (status bar, hover or focus for details). The
 * one list: the status bar shows the entries that have a `short` word, the tooltip and its accessible name all of them.
 */
export const shortcuts: readonly { keys: string; what: string; short?: string }[] = [
  { keys: 'Ctrl+K / Ctrl+Shift+P / F1', what: 'command palette: switch sessions (Ctrl+K, outside a terminal) or run any command (> lists commands only)', short: 'palette' },
  { keys: 'Ctrl+Shift+T', what: 'new terminal in the current session', short: 'terminal' },
  { keys: 'Ctrl+Shift+L', what: 'switch between session and ledger', short: 'ledger' },
  { keys: 'Ctrl+Shift+G', what: 'open (or fold) the session\'s Goal panel' },
  { keys: 'Ctrl+Shift+D', what: 'open (or fold) the session\'s Changes panel: every turn\'s changes and the rewind timeline' },
  { keys: 'Ctrl+Shift+B', what: 'show or hide the session\'s side panels (goal, changes, grants)' },
  { keys: 'Ctrl+Shift+F', what: 'find in the focused terminal (and leave it: Tab moves on)', short: 'find' },
  { keys: 'Ctrl+Shift+C / V', what: 'copy / paste in a terminal' },
];

export function ShortcutHelp() {
  const summary = shortcuts.map((s) => `${s.keys}: ${s.what}`).join('\n');
  return (
    <span className="shortcut-help" data-tooltip={summary} data-placement="top" tabIndex={0} aria-label={`Keyboard shortcuts. ${summary}`}>
      {shortcuts
        .filter((s) => s.short)
        .map((s, i) => (
          <span key={s.keys}>
            {i > 0 && ' · '}
            <kbd>{s.keys}</kbd> {s.short}
          </span>
        ))}
    </span>
  );
}
