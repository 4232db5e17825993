import { useEffect, useImperativeHandle, useLayoutEffect, useRef, useState, type HTMLAttributes, type ReactNode, type Ref } from 'react';

/**
 * Past this height the content is not laid out at its true size: browsers stop laying out somewhere above
 * 16 million pixels (Chromium ~33M, Firefox ~17.9M), and 8M keeps well clear of all of them.
 */
const MAX_CONTENT_PX = 8_000_000;

export interface VirtualRowsHandle {
  /** Scrolls as little as needed to show the row. */
  scrollToIndex(index: number): void;
  scrollToTop(): void;
  /** Rows that fit in the viewport (at least 1). */
  rowsPerPage(): number;
  element(): HTMLDivElement | null;
}

interface Props extends Omit<HTMLAttributes<HTMLDivElement>, 'children' | 'onScroll'> {
  count: number;
  rowHeight: number;
  /** Rendered first, sticky at the top (a header row); its height is `rowHeight`. */
  header?: ReactNode;
  /**
   * The row at `index`, which must be absolutely positioned at `top` with height `rowHeight`. `slot` may serve as its
   * key: the rows on screen never share one, and a row leaving the screen hands its slot to the one entering it, so
   * scrolling or new rows at the end update the same few elements (position and text) instead of creating new ones,
   * each of which has its whole style computed.
   */
  renderRow(index: number, top: number, slot: number): ReactNode;
  /** The rows on screen changed: first..last (last < first when none are). */
  onRangeChange(first: number, last: number): void;
  /** Whether the list is scrolled to its very top. */
  onAtTopChange?(atTop: boolean): void;
  /**
   * Keeps the last row in view as rows are added, until the user scrolls away from the end (and again once they
   * scroll back to it): a log that follows its output.
   */
  stickToEnd?: boolean;
  ref?: Ref<VirtualRowsHandle>;
}

/**
 * A vertically scrolling list of `count` rows of one fixed height, of which only the rows on screen exist in the
 * DOM. Any count works: when the true height would exceed what a browser can lay out, the content is shorter and
 * scroll positions are scaled (a pixel of scrollbar is `scale` pixels of list); wheel scrolling is then applied by
 * hand, divided by the scale, so a notch still moves the list by the usual few rows.
 */
export function VirtualRows({ count, rowHeight, header, renderRow, onRangeChange, onAtTopChange, stickToEnd = false, ref, className, ...rest }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const [domScrollTop, setScrollTop] = useState(0);
  const [clientHeight, setClientHeight] = useState(0);
  /** stickToEnd: whether the user is at the end (or has not scrolled yet), and the scrollTop this list last set. */
  const atEnd = useRef(true);
  const scrolledTo = useRef<number | null>(null);
  const headerHeight = header ? rowHeight : 0;
  const viewport = Math.max(0, clientHeight - headerHeight);

  const fullHeight = count * rowHeight;
  const contentHeight = Math.min(fullHeight, MAX_CONTENT_PX);
  const scale = fullHeight > contentHeight && contentHeight > viewport ? (fullHeight - viewport) / (contentHeight - viewport) : 1;
  // The scrollTop that shows the last row. While the list sticks to its end, its rows are drawn for that position in
  // the same render that adds them, and the element is moved there in the commit: one render and one layout per
  // batch of new rows, instead of drawing them where the list was, scrolling, and drawing again on the scroll event.
  const endScrollTop = Math.max(0, headerHeight + contentHeight - clientHeight);
  const following = stickToEnd && atEnd.current;
  const scrollTop = following ? endScrollTop : domScrollTop;
  const virtualTop = Math.max(0, Math.min(scrollTop * scale, fullHeight - viewport));
  const first = Math.floor(virtualTop / rowHeight);
  const last = Math.min(count - 1, Math.floor((virtualTop + viewport - 1) / rowHeight));

  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const measure = (): void => {
      setClientHeight(element.clientHeight);
      setScrollTop(element.scrollTop);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  useLayoutEffect(() => {
    const element = scroller.current;
    if (!following || !element || clientHeight === 0 || scrolledTo.current === endScrollTop) return;
    scrolledTo.current = endScrollTop;
    element.scrollTop = endScrollTop;
  }, [following, endScrollTop, clientHeight]);

  const onScroll = (element: HTMLDivElement): void => {
    const top = element.scrollTop;
    // Its own move to the end keeps it following; the user's scroll follows only if it ends at the end.
    if (stickToEnd && top !== scrolledTo.current) atEnd.current = top >= element.scrollHeight - element.clientHeight - rowHeight;
    scrolledTo.current = null;
    setScrollTop(top);
  };

  useEffect(() => onRangeChange(first, last), [first, last, onRangeChange]);
  const atTop = scrollTop < rowHeight / 2;
  useEffect(() => onAtTopChange?.(atTop), [atTop, onAtTopChange]);

  useEffect(() => {
    const element = scroller.current;
    if (!element || scale === 1) return;
    const onWheel = (event: WheelEvent): void => {
      if (event.ctrlKey || event.deltaY === 0) return;
      event.preventDefault();
      const unit = event.deltaMode === WheelEvent.DOM_DELTA_LINE ? rowHeight : event.deltaMode === WheelEvent.DOM_DELTA_PAGE ? viewport : 1;
      element.scrollTop += (event.deltaY * unit) / scale;
    };
    element.addEventListener('wheel', onWheel, { passive: false });
    return () => element.removeEventListener('wheel', onWheel);
  }, [scale, rowHeight, viewport]);

  useImperativeHandle(
    ref,
    () => ({
      scrollToIndex(index) {
        const element = scroller.current;
        if (!element) return;
        const top = index * rowHeight;
        const current = Math.min(element.scrollTop * scale, fullHeight - viewport);
        let target: number;
        if (top < current) target = top;
        else if (top + rowHeight > current + viewport) target = top + rowHeight - viewport;
        else return;
        element.scrollTop = target / scale;
        // Scaled positions round to whole pixels: nudge until the row is fully in view.
        if (scale > 1) {
          const landed = element.scrollTop * scale;
          if (top < landed) element.scrollTop = Math.floor(top / scale);
          else if (top + rowHeight > landed + viewport) element.scrollTop = Math.ceil((top + rowHeight - viewport) / scale);
        }
        setScrollTop(element.scrollTop);
      },
      scrollToTop() {
        if (scroller.current) scroller.current.scrollTop = 0;
        setScrollTop(0);
      },
      rowsPerPage: () => Math.max(1, Math.floor(viewport / rowHeight)),
      element: () => scroller.current,
    }),
    [rowHeight, scale, fullHeight, viewport],
  );

  const rows: ReactNode[] = [];
  // Any run of consecutive indexes no longer than `slots` maps to distinct slots.
  const slots = Math.max(1, last - first + 1, Math.ceil(viewport / rowHeight) + 1);
  for (let index = first; index <= last; index++) rows.push(renderRow(index, scrollTop + (index * rowHeight - virtualTop), index % slots));

  return (
    <div ref={scroller} className={`virtual-rows ${className ?? ''}`} onScroll={(event) => onScroll(event.currentTarget)} {...rest}>
      {header}
      <div className="virtual-rows-content" style={{ height: contentHeight, position: 'relative' }}>
        {rows}
      </div>
    </div>
  );
}
