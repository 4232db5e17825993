// The one question the profile summaries ask of a source map: which source does a position of the bundle come from?
// A minified bundle (the production build) is a few very long lines, so the `// path` markers esbuild writes between
// modules in an unminified bundle are gone; its source map (esbuild writes one beside every bundle) still knows.

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGIT = new Int8Array(128).fill(-1);
for (let i = 0; i < BASE64.length; i++) DIGIT[BASE64.charCodeAt(i)] = i;

/** The base64 VLQ numbers of one mapping segment ("AAAA", "gBAAC", ...). */
function decodeSegment(segment) {
  const numbers = [];
  let value = 0;
  let shift = 0;
  for (let i = 0; i < segment.length; i++) {
    const digit = DIGIT[segment.charCodeAt(i)];
    if (digit < 0) throw new Error(`not a base64 VLQ digit: ${JSON.stringify(segment[i])} in ${JSON.stringify(segment)}`);
    value += (digit & 31) * 2 ** shift;
    if (digit & 32) {
      shift += 5;
    } else {
      numbers.push(value % 2 === 1 ? -(value - 1) / 2 : value / 2);
      value = 0;
      shift = 0;
    }
  }
  return numbers;
}

/**
 * `map`: a parsed source map (version 3, no index maps). Returns (line, column) → the `sources` entry that position
 * of the generated file maps to, both 0-based as CDP reports them; undefined where nothing is mapped.
 */
export function sourceAt(map) {
  const lines = [];
  let source = 0;
  for (const line of map.mappings.split(';')) {
    // Per line: [generated column, source index] pairs in column order. The column starts again on each line, the
    // source index runs on across lines.
    const segments = [];
    let column = 0;
    for (const segment of line.split(',')) {
      if (!segment) continue;
      const [columnDelta, sourceDelta] = decodeSegment(segment);
      column += columnDelta;
      if (sourceDelta !== undefined) {
        source += sourceDelta;
        segments.push(column, source);
      }
    }
    lines.push(segments);
  }
  return (line, column) => {
    const segments = lines[line];
    if (!segments || segments.length === 0) return undefined;
    let lo = 0;
    let hi = segments.length / 2 - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (segments[mid * 2] <= column) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found < 0 ? undefined : map.sources[segments[found * 2 + 1]];
  };
}
