/** How the palette opens: '' lists sessions first (a quick switcher), '>' lists commands only (as in VS Code). */
export type PaletteOpening = '' | '>';

type KeyFacts = Pick<KeyboardEvent, 'key' | 'code' | 'ctrlKey' | 'shiftKey' | 'altKey' | 'metaKey'>;

/**
 * The keys that open the palette: Ctrl+K (Cmd+K on a Mac) for the switcher, Ctrl+Shift+P (Cmd+Shift+P) and F1 for
 * commands. `code` rather than `key`, so a keyboard layout or Shift does not change which physical key it is.
 */
export function paletteOpeningFor(event: KeyFacts): PaletteOpening | null {
  if (event.key === 'F1' && !event.ctrlKey && !event.shiftKey && !event.altKey && !event.metaKey) return '>';
  // Exactly one of Ctrl and Cmd, never Alt (AltGr arrives as Ctrl+Alt on Windows and types characters).
  if (event.ctrlKey === event.metaKey || event.altKey) return null;
  if (event.code === 'KeyK' && !event.shiftKey) return '';
  if (event.code === 'KeyP' && event.shiftKey) return '>';
  return null;
}
