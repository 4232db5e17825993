/**
 * The palette's fuzzy matcher: the query's letters must appear in the text in order (a subsequence, any case), and
 * among all the ways they can, the best-scoring one wins. Letters at the start of a word and runs of adjacent letters
 * score more, skipped letters cost a little, so "nt" finds "New terminal" at N and t, and "term" prefers the word
 * "terminal" to t…e…r…m scattered over a sentence. A run of adjacent letters that begins a word keeps the word-start
 * bonus for each of its letters, so a typed prefix ("conn" in "Connections") beats the same letters picked from the
 * starts of several words. Spaces in the query only separate words: they match any gap.
 */

export interface FuzzyMatch {
  score: number;
  /** The indices in the text of the matched letters, ascending (for highlighting). */
  positions: number[];
}

/** Per matched letter. */
const MATCH = 1;
/** The letter starts a word: the text's first letter, one after a separator, or a capital after a lower-case letter. */
const WORD_START = 8;
/** The letter directly follows the previous matched one (or, in a run that began at a word start, WORD_START). */
const ADJACENT = 5;
/** Per letter skipped between two matched letters. */
const GAP = 1;
/** Per letter skipped before the first matched one, capped: an early match is better, but not by much. */
const LEADING_GAP = 0.5;
const MAX_LEADING_PENALTY = 5;

const SEPARATORS = new Set([' ', '-', '_', '/', '.', ':', '(', ')', '·', '…', ',']);

function isWordStart(text: string, index: number): boolean {
  if (index === 0) return true;
  const before = text[index - 1];
  if (SEPARATORS.has(before)) return true;
  const here = text[index];
  // camelCase: a capital after a lower-case letter.
  return here !== here.toLowerCase() && before === before.toLowerCase() && before !== before.toUpperCase();
}

/** The best match of `query` in `text`, or null when its letters are not all there in order. An empty query matches everything with score 0. */
export function fuzzyMatch(query: string, text: string): FuzzyMatch | null {
  const wanted = query.replace(/\s+/g, '').toLowerCase();
  if (wanted === '') return { score: 0, positions: [] };
  const haystack = text.toLowerCase();
  const m = wanted.length;
  const n = haystack.length;
  if (m > n) return null;

  const wordStart = new Float64Array(n);
  for (let j = 0; j < n; j++) wordStart[j] = isWordStart(text, j) ? WORD_START : 0;

  // best[i][j]: the best score with query letter i matched at text index j (-Infinity: impossible);
  // from[i][j]: where letter i-1 was matched on that best path; run[i][j]: the word-start bonus of the first letter of
  // the run of adjacent matches that letter i ends on that path.
  const best: Float64Array[] = [];
  const from: Int32Array[] = [];
  const run: Float64Array[] = [];
  const first = new Float64Array(n).fill(-Infinity);
  for (let j = 0; j < n; j++) {
    if (haystack[j] === wanted[0]) first[j] = MATCH + wordStart[j] - Math.min(MAX_LEADING_PENALTY, j * LEADING_GAP);
  }
  best.push(first);
  from.push(new Int32Array(n).fill(-1));
  run.push(wordStart);

  for (let i = 1; i < m; i++) {
    const previous = best[i - 1];
    const previousRun = run[i - 1];
    const row = new Float64Array(n).fill(-Infinity);
    const back = new Int32Array(n).fill(-1);
    const runs = new Float64Array(n);
    // The best previous[k] + GAP * k over k <= j - 2: a match at j after a gap of (j - 1 - k) letters scores
    // previous[k] - GAP * (j - 1 - k), which is that running best minus GAP * (j - 1). Linear in the text's length.
    let gapBest = -Infinity;
    let gapFrom = -1;
    for (let j = i; j < n; j++) {
      if (j >= 2) {
        const k = j - 2;
        const candidate = previous[k] + GAP * k;
        if (candidate > gapBest) {
          gapBest = candidate;
          gapFrom = k;
        }
      }
      if (haystack[j] !== wanted[i]) continue;
      const adjacent = previous[j - 1] + MATCH + Math.max(ADJACENT, previousRun[j - 1], wordStart[j]);
      const gapped = gapBest - GAP * (j - 1) + MATCH + wordStart[j];
      if (adjacent === -Infinity && gapped === -Infinity) continue;
      if (adjacent >= gapped) {
        row[j] = adjacent;
        back[j] = j - 1;
        runs[j] = previousRun[j - 1];
      } else {
        row[j] = gapped;
        back[j] = gapFrom;
        runs[j] = wordStart[j];
      }
    }
    best.push(row);
    from.push(back);
    run.push(runs);
  }

  const last = best[m - 1];
  let end = -1;
  for (let j = 0; j < n; j++) if (last[j] > -Infinity && (end === -1 || last[j] > last[end])) end = j;
  if (end === -1) return null;

  const positions = new Array<number>(m);
  for (let i = m - 1, j = end; i >= 0; i--) {
    positions[i] = j;
    j = from[i][j];
  }
  return { score: last[end], positions };
}

export interface Segment {
  text: string;
  matched: boolean;
}

/** Splits `text` into runs of matched and unmatched letters, for drawing the matched ones highlighted. */
export function highlightSegments(text: string, positions: readonly number[]): Segment[] {
  const marked = new Set(positions);
  const segments: Segment[] = [];
  for (let i = 0; i < text.length; i++) {
    const matched = marked.has(i);
    const last = segments[segments.length - 1];
    if (last && last.matched === matched) last.text += text[i];
    else segments.push({ text: text[i], matched });
  }
  return segments;
}
