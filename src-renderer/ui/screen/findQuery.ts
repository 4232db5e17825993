import type { ISearchOptions } from '@xterm/addon-search';

/** What the find bar searches for, as the user set it. */
export interface FindQuery {
  text: string;
  caseSensitive: boolean;
  regex: boolean;
}

/** The search addon's report: which match is current (-1 past its highlight limit) of how many. */
export interface FindResults {
  resultIndex: number;
  resultCount: number;
}

/** Past this many matches the addon stops highlighting and counting exactly (its `highlightLimit`). */
export const FIND_HIGHLIGHT_LIMIT = 1000;

/**
 * Why the query cannot be searched, in words that say how to fix it, or null. Only a regular expression can be
 * wrong: the addon would throw on it (or silently find nothing), so it is checked here first, as JavaScript reads it.
 */
export function findProblem(query: FindQuery): string | null {
  if (!query.regex || query.text === '') return null;
  try {
    new RegExp(query.text, query.caseSensitive ? '' : 'i');
    return null;
  } catch (error) {
    const detail = (error as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /, '');
    return `Not a valid regular expression: ${detail}. Fix it, or turn off .* to search for the text as typed`;
  }
}

/** "3 of 12", "No matches", "1000+ matches" (past the limit the current one has no number), or '' with nothing typed. */
export function matchCountText(text: string, results: FindResults | null): string {
  if (text === '' || !results) return '';
  if (results.resultCount === 0) return 'No matches';
  if (results.resultIndex < 0) return results.resultCount >= FIND_HIGHLIGHT_LIMIT ? `${FIND_HIGHLIGHT_LIMIT}+ matches` : `${results.resultCount} matches`;
  return `${results.resultIndex + 1} of ${results.resultCount}`;
}

/**
 * The addon's options for one search: every match highlighted (so the count is reported), the current one stronger,
 * in colors readable on the terminal's own background in either scheme (the addon takes #RRGGBB only).
 */
export function findOptions(query: FindQuery, dark: boolean, incremental: boolean): ISearchOptions {
  return {
    caseSensitive: query.caseSensitive,
    regex: query.regex,
    incremental,
    decorations: dark
      ? { matchBackground: '#4d4320', matchBorder: '#a08a3c', matchOverviewRuler: '#a08a3c', activeMatchBackground: '#8a6d00', activeMatchBorder: '#ffd75e', activeMatchColorOverviewRuler: '#ffd75e' }
      : { matchBackground: '#fff1a8', matchBorder: '#c9a600', matchOverviewRuler: '#c9a600', activeMatchBackground: '#ffc94d', activeMatchBorder: '#8a6d00', activeMatchColorOverviewRuler: '#8a6d00' },
  };
}
