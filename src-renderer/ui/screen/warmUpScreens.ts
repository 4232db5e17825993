import { XtermScreen } from './xtermScreen';

/** The performance mark set once the warm-up screen is gone (for diagnostics and the tests). */
export const SCREENS_WARMED_MARK = 'omni:screens-warmed';

/**
 * Makes one screen out of sight, writes a line to it and drops it after it has drawn (warmUpScreensWhenIdle: once the
 * page is first idle). The first screen of a page pays for running xterm's code for the first time (the engine compiles it as it
 * is first run), for the GPU probe and for the first font measurement: tens to hundreds of ms that would otherwise
 * fall between a user's first Run (or first terminal) and its first character (docs/performance.md#run-card).
 */
export function warmUpScreens(): void {
  const box = document.createElement('div');
  box.setAttribute('aria-hidden', 'true');
  box.style.cssText = 'position: fixed; left: -10000px; top: 0; width: 640px; height: 160px; visibility: hidden; pointer-events: none';
  document.body.appendChild(box);
  const screen = new XtermScreen('warm-up', box, { onFindRequested: () => undefined });
  screen.term.write('\x1b[1mwarming up\x1b[0m\r\n', () => {
    requestAnimationFrame(() => {
      screen.dispose();
      box.remove();
      performance.mark(SCREENS_WARMED_MARK);
    });
  });
}

let asked = false;

/** Runs warmUpScreens once the page has nothing else to do, within `timeoutMs` at the latest; once per page. */
export function warmUpScreensWhenIdle(timeoutMs = 3000): void {
  if (asked) return;
  asked = true;
  requestIdleCallback(() => warmUpScreens(), { timeout: timeoutMs });
}
