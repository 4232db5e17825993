import { useLayoutEffect, useRef, type RefObject, type UIEvent } from 'react';

/** How close to the bottom (px) still counts as following. */
const FOLLOW_SLACK_PX = 24;

/**
 * A scrolling log that keeps its newest line in view while the user is at the bottom; scrolling up to read stops the
 * following until they scroll back down. `changed` is what says new content came (compared by identity).
 */
export function useFollowBottom<E extends HTMLElement>(changed: unknown): { ref: RefObject<E | null>; onScroll(event: UIEvent<E>): void } {
  const ref = useRef<E>(null);
  const following = useRef(true);
  useLayoutEffect(() => {
    const element = ref.current;
    if (element && following.current) element.scrollTop = element.scrollHeight;
  }, [changed]);
  const onScroll = (event: UIEvent<E>): void => {
    const element = event.currentTarget;
    following.current = element.scrollHeight - element.scrollTop - element.clientHeight <= FOLLOW_SLACK_PX;
  };
  return { ref, onScroll };
}
