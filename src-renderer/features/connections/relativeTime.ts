/** "in 4 min", "3 h ago", "in 12 s": a time relative to now, coarse enough to read at a glance. */
export function relativeTime(at: number, now: number): string {
  const delta = at - now;
  const abs = Math.abs(delta);
  // Each unit is used while its rounded count stays below the next unit: 59.7 minutes reads "1 h", not "60 min".
  const seconds = Math.round(abs / 1000);
  const minutes = Math.round(abs / 60_000);
  const hours = Math.round(abs / 3_600_000);
  let amount: string;
  if (seconds < 60) amount = `${seconds} s`;
  else if (minutes < 60) amount = `${minutes} min`;
  else if (hours < 24) amount = `${hours} h`;
  else amount = `${Math.round(abs / 86_400_000)} d`;
  return delta >= 0 ? `in ${amount}` : `${amount} ago`;
}

/** A countdown as m:ss (device codes live for minutes). */
export function countdown(until: number, now: number): string {
  const left = Math.max(0, Math.ceil((until - now) / 1000));
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`;
}
