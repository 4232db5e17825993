// Reading the flood agent's chunk markers (acpFloodAgent.mjs: «seq:ms» at the start of each chunk's text) and
// turning "when did each chunk arrive" into the ACP bench's figures. Shared by the bare client, the host-side
// reader and the page-side figures.

/** The chunk number and write time (epoch ms) of one chunk's text, or null when it carries no marker. */
export function parseChunkMarker(text) {
  const open = text.indexOf('«');
  const colon = text.indexOf(':', open);
  const close = text.indexOf('»', colon);
  if (open < 0 || colon < 0 || close < 0) return null;
  const seq = Number(text.slice(open + 1, colon));
  const at = Number(text.slice(colon + 1, close));
  return Number.isInteger(seq) && Number.isFinite(at) ? { seq, at } : null;
}

export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/**
 * Figures of one flood from `[seq, writtenAt, arrivedAt]` per chunk (epoch ms) and the prompt's send time:
 * latency percentiles, the rate chunks were written at and arrived at (first to last arrival), prompt → first chunk.
 */
export function floodFigures(arrivals, promptAt, expected) {
  if (arrivals.length === 0) throw new Error('no flood chunk arrived');
  const bySeq = [...arrivals].sort((a, b) => a[0] - b[0]);
  const inOrder = bySeq.every(([seq], i) => seq === i);
  if (bySeq.length !== expected || !inOrder) throw new Error(`${bySeq.length} flood chunks arrived${inOrder ? '' : ' (with gaps)'}, expected ${expected} in order`);
  const latencies = bySeq.map(([, written, arrived]) => arrived - written).sort((a, b) => a - b);
  const firstArrival = Math.min(...bySeq.map((a) => a[2]));
  const lastArrival = Math.max(...bySeq.map((a) => a[2]));
  const written = bySeq.map((a) => a[1]);
  return {
    chunks: bySeq.length,
    writtenPerSec: ((bySeq.length - 1) / (written.at(-1) - written[0])) * 1000,
    arrivedPerSec: ((bySeq.length - 1) / (lastArrival - firstArrival)) * 1000,
    latencyMs: { p50: percentile(latencies, 50), p95: percentile(latencies, 95), p99: percentile(latencies, 99), max: latencies.at(-1) },
    promptToFirstMs: firstArrival - promptAt,
    /** The agent's own part of that: prompt sent → first chunk written. */
    promptToWrittenMs: written[0] - promptAt,
  };
}

/**
 * Per chunk, the first time the page showed it: `changes` are [epoch ms, highest chunk number shown] in time order,
 * `written` the chunks' [seq, writtenAt] (from the host's replay). Returns [seq, writtenAt, shownAt] per chunk shown.
 */
export function shownArrivals(written, changes) {
  const arrivals = [];
  let c = 0;
  for (const [seq, at] of [...written].sort((a, b) => a[0] - b[0])) {
    while (c < changes.length && changes[c][1] < seq) c++;
    if (c === changes.length) break;
    arrivals.push([seq, at, changes[c][0]]);
  }
  return arrivals;
}
