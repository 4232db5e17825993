const MAX_SUMMARY = 140;

function shortValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'string') return value.length > 60 ? `${value.slice(0, 57)}…` : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.length}]`;
  return '{…}';
}

/** One line for the table: `key=value` pairs, long values shortened; the full JSON is one click away. */
export function payloadSummary(payload: Record<string, unknown>): string {
  const text = Object.entries(payload)
    .map(([key, value]) => `${key}=${shortValue(value)}`)
    .join('  ');
  return text.length > MAX_SUMMARY ? `${text.slice(0, MAX_SUMMARY - 1)}…` : text;
}
