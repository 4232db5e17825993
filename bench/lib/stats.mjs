// Small numeric and formatting helpers for the report.

export function median(values) {
  const xs = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (xs.length === 0) return NaN;
  const mid = xs.length >> 1;
  return xs.length % 2 ? xs[mid] : (xs[mid - 1] + xs[mid]) / 2;
}

export function round(value, digits = 1) {
  if (!Number.isFinite(value)) return null;
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

export const MB = 1e6;

export function fmt(value, unit = '', digits = 1) {
  return Number.isFinite(value) ? `${value.toFixed(digits)}${unit}` : 'n/a';
}

export function ratioText(ratio) {
  return Number.isFinite(ratio) ? `${ratio.toFixed(2)}×` : 'n/a';
}

/** Renders rows of cells as a left-aligned text table with a header and a rule. */
export function table(header, rows) {
  const all = [header, ...rows].map((r) => r.map((c) => String(c ?? '')));
  const widths = header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  const line = (r) => '  ' + r.map((c, i) => c.padEnd(widths[i])).join('   ').trimEnd();
  return [line(all[0]), '  ' + widths.map((w) => '─'.repeat(w)).join('   '), ...all.slice(1).map(line)].join('\n');
}

/** A goal's verdict for the report's tables ('' when there is no goal). */
export function verdict(ok) {
  return ok === undefined ? '' : ok ? 'met' : 'NOT MET';
}

/** The first line of an error's text, for one-line "not measured" notes. */
export function firstLine(text) {
  return String(text ?? 'not run').split('\n')[0];
}
