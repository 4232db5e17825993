import { DomainError } from '../base/domainError';

/** What a terminal sends for each named key (xterm's normal cursor mode, as most programs expect). */
const NAMED: Record<string, string> = {
  Enter: '\r',
  Tab: '\t',
  Escape: '\x1b',
  Esc: '\x1b',
  Backspace: '\x7f',
  Space: ' ',
  Up: '\x1b[A',
  Down: '\x1b[B',
  Right: '\x1b[C',
  Left: '\x1b[D',
  Home: '\x1b[H',
  End: '\x1b[F',
  PageUp: '\x1b[5~',
  PageDown: '\x1b[6~',
  Delete: '\x1b[3~',
  Insert: '\x1b[2~',
  F1: '\x1bOP',
  F2: '\x1bOQ',
  F3: '\x1bOR',
  F4: '\x1bOS',
  F5: '\x1b[15~',
  F6: '\x1b[17~',
  F7: '\x1b[18~',
  F8: '\x1b[19~',
  F9: '\x1b[20~',
  F10: '\x1b[21~',
  F11: '\x1b[23~',
  F12: '\x1b[24~',
};

/** C-a … C-z and the few punctuation controls (C-@, C-[, C-\, C-], C-^, C-_), case-insensitive letter. */
function control(key: string): string | undefined {
  const match = /^C-(.)$/.exec(key);
  if (!match) return undefined;
  const char = match[1].toUpperCase();
  const code = char.charCodeAt(0);
  if (code >= 0x40 && code <= 0x5f) return String.fromCharCode(code - 0x40);
  if (char === '?') return '\x7f';
  return undefined;
}

/** M-x: Escape then the key, as a terminal sends Alt/Meta. */
function meta(key: string): string | undefined {
  const match = /^M-(.+)$/.exec(key);
  if (!match) return undefined;
  const inner = NAMED[match[1]] ?? control(match[1]) ?? (match[1].length === 1 ? match[1] : undefined);
  return inner === undefined ? undefined : `\x1b${inner}`;
}

/**
 * Turns send_keys entries into what is written to the run: an entry that is a key name (Enter, Tab, Escape,
 * Backspace, Up, Down, Left, Right, Home, End, PageUp, PageDown, Delete, Insert, F1-F12, Space, C-a … C-z, M-x)
 * becomes that key's bytes; anything else is literal text, as tmux's send-keys does.
 * An entry that looks like a key but is not one (C-1, M-Foo) is refused rather than typed as text. On a pipe (a run
 * without a PTY) Enter is a newline.
 */
export function keysToText(keys: readonly string[], target: 'pty' | 'pipe'): string {
  return keys
    .map((key, index) => {
      // A pipe has no terminal to turn Enter's carriage return into the newline a line reader waits for.
      if (key === 'Enter' && target === 'pipe') return '\n';
      const named = NAMED[key] ?? control(key) ?? meta(key);
      if (named !== undefined) return named;
      if (/^[CM]-\S+$/.test(key)) {
        throw new DomainError('invalid_input',
          `keys[${index}] "${key}" looks like a key but is not one: use C-a … C-z (and C-@ C-[ C-\\ C-] C-^ C-_ C-?), M-<key>, or a named key such as Enter, Tab, Escape, Up`,
          { issues: [{ path: `keys.${index}`, message: 'unknown key name' }] },
        );
      }
      return key;
    })
    .join('');
}
