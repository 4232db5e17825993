import { useState, type KeyboardEvent, type RefObject } from 'react';
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

/** The card header's search box: Enter finds the next match, Shift+Enter the previous, Escape returns to the screen. */
export function TerminalSearch({ controller, label, inputRef }: Props) {
  const [query, setQuery] = useState('');
  const [missed, setMissed] = useState(false);

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>): void {
    if (!controller) return;
    if (event.key === 'Enter') {
      event.preventDefault();
      if (!query) return;
      const found = event.shiftKey ? controller.search.findPrevious(query) : controller.search.findNext(query);
      setMissed(!found);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      controller.search.clearDecorations();
      controller.term.clearSelection();
      controller.focus();
    }
  }

  return (
    <input
      ref={inputRef}
      type="search"
      className="terminal-search"
      placeholder="Find (Enter)"
      aria-label={`Search ${label}`}
      aria-invalid={missed ? true : undefined}
      title={missed ? 'No match' : 'Enter: next match · Shift+Enter: previous · Esc: back to the terminal'}
      value={query}
      onChange={(e) => {
        setQuery(e.target.value);
        setMissed(false);
      }}
      onKeyDown={onKeyDown}
    />
  );
}
