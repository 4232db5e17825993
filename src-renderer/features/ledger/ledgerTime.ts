// When an entry was recorded, as a person says it ("2 min ago") next to the exact local time (in the tooltip and
// the details), so the grid reads at a glance and nothing is lost.

const two = (n: number): string => String(n).padStart(2, '0');

/** Local date and time to the second, compact and sortable: 2026-11-23 10:58:03. */
export function formatTime(ts: number): string {
  const d = new Date(ts);
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

/** The exact time for a tooltip: local, then UTC ISO, so a reader in another zone can compare. */
export function fullTime(ts: number): string {
  return `${formatTime(ts)} (${new Date(ts).toISOString()})`;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * "just now", "40 s ago", "2 min ago", "3 h ago", "yesterday 14:03", "5 d ago", then the date. A time slightly in
 * the future (another machine's clock) reads "just now" rather than a negative age.
 */
export function timeAgo(ts: number, now: number): string {
  const age = now - ts;
  if (age < 10_000) return 'just now';
  if (age < MINUTE) return `${Math.floor(age / 1000)} s ago`;
  if (age < HOUR) return `${Math.floor(age / MINUTE)} min ago`;
  if (age < 12 * HOUR) return `${Math.floor(age / HOUR)} h ago`;
  const then = new Date(ts);
  const today = new Date(now);
  today.setHours(0, 0, 0, 0);
  const clock = `${two(then.getHours())}:${two(then.getMinutes())}`;
  if (ts >= today.getTime()) return `today ${clock}`;
  if (ts >= today.getTime() - DAY) return `yesterday ${clock}`;
  if (age < 7 * DAY) return `${Math.floor(age / DAY)} d ago`;
  return `${then.getFullYear()}-${two(then.getMonth() + 1)}-${two(then.getDate())}`;
}
