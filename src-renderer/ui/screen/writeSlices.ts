/**
 * The most text handed to xterm in one write. xterm parses a write whole before it yields to drawing (it yields
 * between writes once its time slice is spent), so a run card replaying a 256 KB item would show nothing until all of
 * it was parsed; in slices the first screenful is drawn after the first few.
 */
export const SCREEN_WRITE_SLICE = 32 * 1024;

/** `text` cut into pieces of at most `slice` characters, never between the two halves of a surrogate pair. */
export function writeSlices(text: string, slice = SCREEN_WRITE_SLICE): string[] {
  if (text.length <= slice) return [text];
  const pieces: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(start + slice, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    pieces.push(text.slice(start, end));
    start = end;
  }
  return pieces;
}
