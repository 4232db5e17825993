import { useEffect, useLayoutEffect, useRef, type RefObject, type UIEvent } from 'react';

/** How close to the bottom (px) still counts as following. */
const FOLLOW_SLACK_PX = 24;

/**
 * A scrolling log that keeps its newest line in view while the user is at the bottom; scrolling up to read stops the
 * following until they scroll back down. `changed` is what says new content came (compared by identity).
 *
 * A log that renders `anchor` as its last child (an empty element) is followed without a layout read per change: while
 * following, that element is the scroller's only scroll-anchoring candidate (`data-following`, see app CSS), so the
 * browser keeps it in view as content grows above it, within its own layout; an IntersectionObserver scrolls down
 * only when the bottom left the view while following all the same (content that came while the scroller was at its
 * top, or a browser without scroll anchoring). Without `anchor`, every change scrolls to the bottom, which reads the
 * layout at once: fine for a log that changes a few times a second, not for a reply streaming every frame.
 */
export function useFollowBottom<E extends HTMLElement>(
  changed: unknown,
): { ref: RefObject<E | null>; anchor: RefObject<HTMLDivElement | null>; onScroll(event: UIEvent<E>): void } {
  const ref = useRef<E>(null);
  const anchor = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  useLayoutEffect(() => {
    const element = ref.current;
    if (element && !anchor.current && following.current) element.scrollTop = element.scrollHeight;
  }, [changed]);
  useEffect(() => {
    const element = ref.current;
    const end = anchor.current;
    if (!element || !end) return;
    element.toggleAttribute('data-following', following.current);
    const observer = new IntersectionObserver(
      (entries) => {
        if (following.current && !entries.at(-1)!.isIntersecting) element.scrollTop = element.scrollHeight;
      },
      { root: element, rootMargin: `0px 0px ${FOLLOW_SLACK_PX}px 0px` },
    );
    observer.observe(end);
    return () => observer.disconnect();
  }, []);
  const onScroll = (event: UIEvent<E>): void => {
    const element = event.currentTarget;
    following.current = element.scrollHeight - element.scrollTop - element.clientHeight <= FOLLOW_SLACK_PX;
    if (anchor.current) element.toggleAttribute('data-following', following.current);
  };
  return { ref, anchor, onScroll };
}
