import { useCallback, type ReactNode } from 'react';
import { VirtualRows } from '../VirtualRows';

export const LINE_HEIGHT = 18;
/** A card shows at most this many lines at once and scrolls the rest. */
const VISIBLE_LINES = 24;
/** Room for a horizontal scrollbar under long lines. */
const SCROLLBAR_ALLOWANCE = 14;

interface Props {
  count: number;
  /** One line's content; the row around it is positioned by the view. */
  renderLine(index: number): ReactNode;
  lineClass?(index: number): string;
  /** Keeps the last line in view while the user has not scrolled up (logs). */
  follow?: boolean;
  label: string;
  testId: string;
}

/**
 * The lines of a code, diff or log card. Only the lines on screen are in the DOM, so a card with a million lines
 * scrolls like one with ten; short cards are exactly as tall as their lines.
 */
export function LinesView({ count, renderLine, lineClass, follow = false, label, testId }: Props) {
  const height = Math.min(Math.max(count, 1), VISIBLE_LINES) * LINE_HEIGHT + (count > 0 ? SCROLLBAR_ALLOWANCE : 0);
  const onRangeChange = useCallback(() => undefined, []);
  const renderRow = (index: number, top: number, slot: number): ReactNode => (
    <div key={slot} className={`line-row ${lineClass?.(index) ?? ''}`} style={{ top, height: LINE_HEIGHT }} data-line={index + 1}>
      <span className="line-no" aria-hidden="true">
        {index + 1}
      </span>
      <span className="line-text">{renderLine(index)}</span>
    </div>
  );

  return (
    <VirtualRows
      className="lines-view"
      style={{ height }}
      role="log"
      aria-label={label}
      tabIndex={0}
      data-testid={testId}
      data-line-count={count}
      count={count}
      rowHeight={LINE_HEIGHT}
      renderRow={renderRow}
      onRangeChange={onRangeChange}
      stickToEnd={follow}
    />
  );
}
