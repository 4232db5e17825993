import type { Terminal } from '@xterm/xterm';

/**
 * Terminal-style clipboard keys: Ctrl+Shift+C copies the selection, Ctrl+Shift+V pastes. Plain Ctrl+C and Ctrl+V
 * stay with the shell (interrupt, literal next). Returns false when xterm must not handle the key itself.
 */
export function handleClipboardKeys(term: Terminal, event: KeyboardEvent): boolean {
  if (event.type !== 'keydown' || !event.ctrlKey || !event.shiftKey || event.altKey || event.metaKey) return true;
  if (event.code === 'KeyC') {
    event.preventDefault();
    const selection = term.getSelection();
    if (selection) void navigator.clipboard?.writeText(selection).catch(() => undefined);
    return false;
  }
  if (event.code === 'KeyV') {
    // Not prevented: Chromium turns Ctrl+Shift+V into a paste event on xterm's textarea, which xterm already
    // handles (bracketed paste included) and which needs no clipboard-read permission.
    return false;
  }
  return true;
}
