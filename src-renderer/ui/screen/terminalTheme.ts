import type { ITheme } from '@xterm/xterm';

const dark: ITheme = {
  background: '#13171f',
  foreground: '#dfe3eb',
  cursor: '#dfe3eb',
  selectionBackground: '#3b4a63',
};

const light: ITheme = {
  background: '#fbfcfc',
  foreground: '#1f2430',
  cursor: '#1f2430',
  cursorAccent: '#fbfcfc',
  selectionBackground: '#bcd3f5',
  // The default ANSI palette is made for dark backgrounds; darker tones keep colored output readable here.
  black: '#1f2430',
  red: '#c0292b',
  green: '#2a7a2e',
  yellow: '#8a6d00',
  blue: '#2457c5',
  magenta: '#9b2fae',
  cyan: '#0f7b86',
  white: '#6b7280',
  brightBlack: '#4b5563',
  brightWhite: '#374151',
};

const darkQuery = (): MediaQueryList => window.matchMedia('(prefers-color-scheme: dark)');

/** The terminal palette for the OS color scheme, like the rest of the UI (Pico follows it too). */
export function currentTerminalTheme(): ITheme {
  return darkQuery().matches ? dark : light;
}

export function onColorSchemeChange(listener: () => void): { dispose(): void } {
  const query = darkQuery();
  query.addEventListener('change', listener);
  return { dispose: () => query.removeEventListener('change', listener) };
}
