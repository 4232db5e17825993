import { memo, useEffect, useRef, useState } from 'react';
import { MarkdownView } from '../../ui/markdown/MarkdownView';

/** A line of text in the message column, as the column was last measured (chars 0: not yet). */
export interface Column {
  /** Characters on a line, roughly. */
  chars: number;
  lineHeightPx: number;
}

/** What a block's height is estimated with before the column was measured (the first frames of a reply). */
const TYPICAL_COLUMN: Column = { chars: 80, lineHeightPx: 24 };

/**
 * A block's height before it was ever laid out, roughly: what it holds for the scrollbar while it is a placeholder or
 * skipped (content-visibility), so the scrollbar and the blocks around it stay about where they will be.
 */
export function estimatedHeight(source: string, measured: Column): number {
  const column = measured.chars > 0 ? measured : TYPICAL_COLUMN;
  let lines = 0;
  for (const line of source.split('\n')) lines += Math.max(1, Math.ceil(line.length / column.chars));
  return Math.round(lines * column.lineHeightPx);
}

/**
 * How far (a fraction of the scroller's height) above and below its view a placeholder is drawn in advance, so a user
 * scrolling back up meets text, not an empty box. A placeholder is only made further from the newest line than this
 * (MessageBlock), so one made while following the bottom is not drawn again at once.
 */
export const DRAW_AHEAD = 0.5;

/** One observer per scroller for every placeholder in it: a callback per placeholder, called once it comes near. */
const nearViewObservers = new Map<Element | null, { observer: IntersectionObserver; callbacks: Map<Element, () => void> }>();

function whenNearView(element: Element, callback: () => void): () => void {
  if (typeof IntersectionObserver === 'undefined') {
    callback();
    return () => {};
  }
  // The conversation's scrolling list; its margin is what "near" means. (Without it, the viewport.)
  const root = element.closest('[data-scroll-root]');
  let entry = nearViewObservers.get(root);
  if (!entry) {
    const callbacks = new Map<Element, () => void>();
    const margin = `${DRAW_AHEAD * 100}%`;
    const observer = new IntersectionObserver(
      (changes) => {
        for (const change of changes) if (change.isIntersecting) callbacks.get(change.target)?.();
      },
      { root, rootMargin: `${margin} 0px ${margin} 0px` },
    );
    entry = { observer, callbacks };
    nearViewObservers.set(root, entry);
  }
  const own = entry;
  own.callbacks.set(element, callback);
  own.observer.observe(element);
  return () => {
    own.observer.unobserve(element);
    own.callbacks.delete(element);
    if (own.callbacks.size === 0) {
      own.observer.disconnect();
      nearViewObservers.delete(root);
    }
  };
}

/** Placeholders of a reply that ended, drawn a few at a time when the page is idle: then every word is in the page again (find, select all). */
const idleDraws = new Set<() => void>();
let idleScheduled = false;
/** Text drawn per idle period, about: a handful of paragraphs, well under a frame's time to parse and insert. */
const IDLE_CHARS = 24_000;

function drawIdle(): void {
  idleScheduled = false;
  let budget = IDLE_CHARS;
  for (const draw of idleDraws) {
    if (budget <= 0) break;
    idleDraws.delete(draw);
    budget -= (draw as { chars?: number }).chars ?? 0;
    draw();
  }
  scheduleIdle();
}

function scheduleIdle(): void {
  if (idleScheduled || idleDraws.size === 0) return;
  idleScheduled = true;
  if (typeof requestIdleCallback === 'function') requestIdleCallback(drawIdle, { timeout: 1000 });
  else setTimeout(drawIdle, 50);
}

function whenIdle(chars: number, callback: () => void): () => void {
  const draw = Object.assign(() => callback(), { chars });
  idleDraws.add(draw);
  scheduleIdle();
  return () => idleDraws.delete(draw);
}

/** A finished block never changes: memoised on its text, it is parsed and drawn once. */
const FinishedBlock = memo(function FinishedBlock({ source, column }: { source: string; column: Column }) {
  const style = column.chars > 0 ? { containIntrinsicSize: `auto ${estimatedHeight(source, column)}px` } : undefined;
  return (
    <div className="acp-block" style={style}>
      <MarkdownView source={source} />
    </div>
  );
});

interface DeferredBlockProps {
  source: string;
  column: Column;
  /** At mount only: whether the block starts as a placeholder (it is far above the newest line of a streaming reply). */
  deferred: boolean;
  /** The reply is still streaming; once it is not, a placeholder is drawn when the page is idle. */
  live: boolean;
}

/**
 * A finished block of a message, or while it is far above the newest line of a streaming reply, an empty box of its
 * estimated height until it comes near the view (or the reply ends). A reply streaming faster than anyone reads ends
 * several blocks per frame; drawing only the last screenful of it keeps the text the browser lays out and shapes per
 * second well under what arrives.
 */
export const DeferredBlock = memo(
  function DeferredBlock({ source, column, deferred, live }: DeferredBlockProps) {
    const [drawn, setDrawn] = useState(!deferred);
    const placeholder = useRef<HTMLDivElement>(null);
    useEffect(() => {
      const element = placeholder.current;
      if (drawn || !element) return;
      const draw = (): void => setDrawn(true);
      const stopWatching = whenNearView(element, draw);
      const stopWaiting = live ? () => {} : whenIdle(source.length, draw);
      return () => {
        stopWatching();
        stopWaiting();
      };
    }, [drawn, live, source]);
    if (drawn) return <FinishedBlock source={source} column={column} />;
    return <div ref={placeholder} className="acp-block acp-block-pending" style={{ height: estimatedHeight(source, column) }} data-testid="acp-block-pending" />;
  },
  // `deferred` only counts at mount: a block already drawn, or already waiting, is left as it is.
  (before, after) => before.source === after.source && before.column === after.column && before.live === after.live,
);
