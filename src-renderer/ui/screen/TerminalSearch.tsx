import './terminalFind.css';
import { useEffect, useId, useState, type KeyboardEvent, type RefObject } from 'react';
import { findOptions, findProblem, matchCountText, type FindQuery, type FindResults } from './findQuery';
import type { XtermScreen } from './xtermScreen';

/** What the search box needs of a card's screen (a terminal's or a process run's). */
export interface SearchableScreen {
  readonly search: XtermScreen['search'];
  readonly term: XtermScreen['term'];
  focus(): void;
}

interface Props {
  controller: SearchableScreen | null;
  label: string;
  inputRef: RefObject<HTMLInputElement | null>;
}

const darkScheme = (): boolean => window.matchMedia('(prefers-color-scheme: dark)').matches;

/**
 * The card header's find bar: matches are highlighted as you type, with "3 of 12"; Enter (or ↓) finds the next one,
 * Shift+Enter (or ↑) the previous; Aa matches case, .* reads the text as a regular expression (a wrong one says
 * what is wrong instead of searching); Escape clears the highlights and returns to the screen.
 */
export function TerminalSearch({ controller, label, inputRef }: Props) {
  const [query, setQuery] = useState<FindQuery>({ text: '', caseSensitive: false, regex: false });
  const [results, setResults] = useState<FindResults | null>(null);
  const problemId = useId();
  const problem = findProblem(query);

  useEffect(() => {
    if (!controller) return;
    const subscription = controller.search.onDidChangeResults((next) => setResults({ resultIndex: next.resultIndex, resultCount: next.resultCount }));
    return () => subscription.dispose();
  }, [controller]);

  /** Searches `next` (the query as just changed, or as it is): forwards or backwards, or from the current match as typed. */
  function find(direction: 'next' | 'previous' | 'typed', next: FindQuery = query): void {
    if (!controller) return;
    if (next.text === '' || findProblem(next)) {
      // Nothing to find: no highlight or selection is left over from the last query.
      controller.search.clearDecorations();
      controller.term.clearSelection();
      setResults(null);
      return;
    }
    const options = findOptions(next, darkScheme(), direction === 'typed');
    const found = direction === 'previous' ? controller.search.findPrevious(next.text, options) : controller.search.findNext(next.text, options);
    // The addon reports counts through its event; a miss it may not report, so it is said here too.
    if (!found) setResults({ resultIndex: -1, resultCount: 0 });
  }

  function change(patch: Partial<FindQuery>): void {
    const next = { ...query, ...patch };
    setQuery(next);
    // The addon re-highlights only for a new term (it compares the options with themselves): a toggle starts afresh.
    if (next.caseSensitive !== query.caseSensitive || next.regex !== query.regex) controller?.search.clearDecorations();
    find('typed', next);
  }

  function close(): void {
    if (!controller) return;
    controller.search.clearDecorations();
    controller.term.clearSelection();
    setResults(null);
    controller.focus();
  }

  function onKeyDown(event: KeyboardEvent<HTMLElement>): void {
    if (event.key === 'Enter' && event.target === inputRef.current) {
      event.preventDefault();
      find(event.shiftKey ? 'previous' : 'next');
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      close();
    }
  }

  const count = problem ? '' : matchCountText(query.text, results);
  const missed = query.text !== '' && (problem !== null || results?.resultCount === 0);
  const canStep = !!controller && query.text !== '' && !problem;
  return (
    <div className="terminal-find" role="search" aria-label={`Find in ${label}`} onKeyDown={onKeyDown} data-testid="terminal-find">
      <input
        ref={inputRef}
        type="search"
        className="terminal-search"
        placeholder="Find (Ctrl+Shift+F)"
        aria-label={`Search ${label}`}
        aria-invalid={missed ? true : undefined}
        aria-describedby={problem ? problemId : undefined}
        title="Enter: next match · Shift+Enter: previous · Esc: back to the terminal"
        value={query.text}
        onChange={(e) => change({ text: e.target.value })}
        data-testid="terminal-find-input"
      />
      <span className={`terminal-find-count${missed ? ' missed' : ''}`} role="status" aria-live="polite" data-testid="terminal-find-count">
        {count}
      </span>
      <button type="button" className="icon-button" aria-label="Previous match (Shift+Enter)" title="Previous match (Shift+Enter)" disabled={!canStep} onClick={() => find('previous')} data-testid="terminal-find-previous">
        ↑
      </button>
      <button type="button" className="icon-button" aria-label="Next match (Enter)" title="Next match (Enter)" disabled={!canStep} onClick={() => find('next')} data-testid="terminal-find-next">
        ↓
      </button>
      <button
        type="button"
        className="icon-button terminal-find-toggle"
        aria-label="Match case"
        title="Match case"
        aria-pressed={query.caseSensitive}
        onClick={() => change({ caseSensitive: !query.caseSensitive })}
        data-testid="terminal-find-case"
      >
        Aa
      </button>
      <button
        type="button"
        className="icon-button terminal-find-toggle"
        aria-label="Regular expression"
        title="Regular expression"
        aria-pressed={query.regex}
        onClick={() => change({ regex: !query.regex })}
        data-testid="terminal-find-regex"
      >
        .*
      </button>
      {problem && (
        <small id={problemId} className="terminal-find-problem" role="alert" data-testid="terminal-find-error">
          {problem}
        </small>
      )}
    </div>
  );
}
