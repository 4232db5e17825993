import { useEffect, useRef } from 'react';

/**
 * Ctrl+Shift+B folds or unfolds the side column of the session in front. Caught in the capture phase, like the
 * app's other shortcuts, so it works while a terminal has focus.
 */
export function useSidePanelsShortcut(active: boolean, toggle: () => void): void {
  const latest = useRef(toggle);
  latest.current = toggle;
  useEffect(() => {
    if (!active) return;
    const onKeyDown = (event: KeyboardEvent): void => {
      if (!event.ctrlKey || !event.shiftKey || event.altKey || event.metaKey || event.code !== 'KeyB') return;
      event.preventDefault();
      event.stopPropagation();
      latest.current();
    };
    window.addEventListener('keydown', onKeyDown, { capture: true });
    return () => window.removeEventListener('keydown', onKeyDown, { capture: true });
  }, [active]);
}
