/** "9:58", "1:02:03": time left, rounded up to the second; "0:00" once it has passed. */
export function formatRemaining(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/** "10 minutes", "45 seconds", "2 hours": how long an agent asked for. */
export function formatSeconds(seconds: number): string {
  if (seconds % 3600 === 0 && seconds >= 3600) return seconds === 3600 ? '1 hour' : `${seconds / 3600} hours`;
  if (seconds % 60 === 0 && seconds >= 60) return seconds === 60 ? '1 minute' : `${seconds / 60} minutes`;
  return seconds === 1 ? '1 second' : `${seconds} seconds`;
}

/** The minutes an "Allow for N minutes" starts at: what the agent asked for, within what the host accepts. */
export function defaultMinutes(durationS: number): number {
  return Math.min(24 * 60, Math.max(1, Math.round(durationS / 60)));
}
