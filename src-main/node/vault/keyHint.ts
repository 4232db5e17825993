/**
 * The most of an API key the app ever shows: its last 4 characters, "…abcd", so the user can tell which key is stored
 * (providers show the same in their consoles). Read from the keychain when asked and never stored anywhere. A key
 * shorter than 12 characters shows nothing: 4 of 11 would give away too much of it.
 */
export const KEY_HINT_MIN_LENGTH = 12;
export const KEY_HINT_CHARS = 4;

export function keyHint(key: string): string | null {
  return key.length >= KEY_HINT_MIN_LENGTH ? `…${key.slice(-KEY_HINT_CHARS)}` : null;
}
