import { highlightLine, type Language, type LineState } from './highlight';

interface StateCache {
  language: Language;
  /** states[k]: the highlighter's state at the start of line k. */
  states: LineState[];
}

/**
 * The highlighter's state at the start of any line of a card, computed once up to the furthest line asked for and
 * kept per line array (a card's `lines` only ever grows, so what was computed stays true).
 */
const caches = new WeakMap<readonly string[], StateCache>();

export function stateAtLine(lines: readonly string[], language: Language, index: number): LineState {
  if (language === 'plain' || language === 'json') return '';
  let cache = caches.get(lines);
  if (!cache || cache.language !== language) {
    cache = { language, states: [''] };
    caches.set(lines, cache);
  }
  const { states } = cache;
  const target = Math.min(index, lines.length);
  for (let k = states.length - 1; k < target; k++) states.push(highlightLine(language, lines[k], states[k]).state);
  return states[target];
}
