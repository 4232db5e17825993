/** A moment as the user's clock shows it: the time today, the date and time otherwise. */
export function clockTime(at: number, now: number = Date.now()): string {
  const date = new Date(at);
  const sameDay = new Date(now).toDateString() === date.toDateString();
  return sameDay ? date.toLocaleTimeString() : date.toLocaleString();
}
