import xtermCss from '@xterm/xterm/css/xterm.css' with { type: 'text' };
import screenCss from './screenRoot.css' with { type: 'text' };

/** Parsed once and shared by every screen's shadow root. */
let sheets: CSSStyleSheet[] | undefined;

function screenSheets(): CSSStyleSheet[] {
  sheets ??= [xtermCss as string, screenCss as string].map((text) => {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(text);
    return sheet;
  });
  return sheets;
}

/**
 * Gives an xterm a style scope of its own: a shadow root on `container` holding xterm's stylesheet and ours, and an
 * element in it to open the terminal in. Why: under a flood xterm's DOM renderer replaces its rows every frame, and
 * in the document Chromium matches each new row against all of Pico's and the app's rules; in the shadow root only
 * the few rules written for the terminal apply, and no rule of the app's can change how the terminal looks. It
 * shortens Chromium's style recalculation during a flood; its effect on throughput is within run-to-run noise (see
 * docs/performance.md#terminal-throughput). The root is open, so tests and tools can look in.
 * A container that already has a root (a screen made again on the same element) has it emptied and reused.
 */
export function openScreenRoot(container: HTMLElement): HTMLElement {
  const root = container.shadowRoot ?? container.attachShadow({ mode: 'open' });
  root.adoptedStyleSheets = screenSheets();
  const screen = document.createElement('div');
  screen.className = 'screen';
  root.replaceChildren(screen);
  return screen;
}
