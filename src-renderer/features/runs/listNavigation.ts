/**
 * Where a key moves the roving focus of a list of `count` rows, from `current`: arrows by one (stopping at the ends),
 * Home and End to the ends, PageUp/PageDown by `page`. Null for a key that does not move it.
 */
export function movedIndex(key: string, current: number, count: number, page = 10): number | null {
  if (count === 0) return null;
  const last = count - 1;
  const from = Math.min(Math.max(current, 0), last);
  switch (key) {
    case 'ArrowDown':
      return Math.min(from + 1, last);
    case 'ArrowUp':
      return Math.max(from - 1, 0);
    case 'Home':
      return 0;
    case 'End':
      return last;
    case 'PageDown':
      return Math.min(from + page, last);
    case 'PageUp':
      return Math.max(from - page, 0);
    default:
      return null;
  }
}
