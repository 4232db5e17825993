import { FitAddon } from '@xterm/addon-fit';
import { SearchAddon } from '@xterm/addon-search';
import { WebLinksAddon } from '@xterm/addon-web-links';
import { Terminal as Xterm } from '@xterm/xterm';
import { DisposableStore, toDisposable, type Disposable } from '../../../src-preload/rpc/disposable';
import type { Subscription } from '../../../src-preload/rpc/rpcClient';
import { handleClipboardKeys } from './clipboardKeys';
import { FIND_HIGHLIGHT_LIMIT } from './findQuery';
import { limitFramesInFloods, noteOutput } from './floodFrames';
import { openScreenRoot } from './screenRoot';
import { currentTerminalTheme, onColorSchemeChange } from './terminalTheme';
import { forgetTerminalStats, terminalStats } from './terminalStats';
import { enableWebglRenderer } from './webglRenderer';
import { writeSlices } from './writeSlices';

/**
 * Credit granted to a stream that feeds a screen, in characters; the host pauses the producer while this much is
 * unparsed and resumes it once a quarter of it is back (rpcServer.ts says why). A smaller window leaves xterm idle
 * part of a flood, waiting for the host to refill it after a pause; a larger one gains nothing more. 2M still bounds
 * memory (a few MB per screen) and Ctrl+C latency (what is already granted is parsed before the interrupt's effect
 * shows). The windows tried and what each measured: docs/performance.md#terminal-throughput.
 */
export const SCREEN_OUTPUT_CREDIT = 2_000_000;

export interface XtermScreenOptions {
  /** Keys typed into the screen. Without it the screen is read-only (no cursor, typing does nothing). */
  onInput?(data: string): void;
  /** Ctrl+Shift+F inside the screen: the card moves focus to its search box. */
  onFindRequested(): void;
  /** The grid was fitted to its box (it may have a new size). */
  onFitted?(): void;
  /** Output uses bare "\n" line ends (a pipe, not a pty): start each new line at the left edge. */
  convertEol?: boolean;
}

/**
 * One xterm on a card, with everything every terminal-like card shares: fonts, theme (following the OS), WebGL
 * where the GPU is real, clipboard keys, search, links, fitting to its box, and flow-controlled writes. What feeds it
 * (a shell's pty, a process run's items) is the owner's business.
 */
export class XtermScreen implements Disposable {
  readonly term: Xterm;
  readonly search = new SearchAddon({ highlightLimit: FIND_HIGHLIGHT_LIMIT });
  private readonly fit = new FitAddon();
  private readonly store = new DisposableStore();

  /** `statsId` keys the parsed-character count the benchmark reads (window.__omniTerminalStats). */
  constructor(
    private readonly statsId: string,
    container: HTMLElement,
    private readonly options: XtermScreenOptions,
  ) {
    // Before the terminal opens, so every frame it asks for goes through the limit.
    const floodFramesLimited = limitFramesInFloods();
    const readOnly = !options.onInput;
    this.term = new Xterm({
      cursorBlink: !readOnly,
      disableStdin: readOnly,
      convertEol: options.convertEol ?? false,
      cursorInactiveStyle: readOnly ? 'none' : 'outline',
      fontFamily: 'ui-monospace, "SFMono-Regular", "DejaVu Sans Mono", Menlo, Consolas, monospace',
      fontSize: 13,
      scrollback: 10_000,
      // The find bar highlights every match and counts them through the search addon's decorations, an API xterm
      // still marks as proposed.
      allowProposedApi: true,
    });
    this.term.loadAddon(this.fit);
    this.term.loadAddon(this.search);
    this.term.loadAddon(new WebLinksAddon((_event, uri) => window.open(uri, '_blank', 'noopener,noreferrer')));
    this.term.attachCustomKeyEventHandler((event) => this.handleKey(event));
    this.term.open(openScreenRoot(container));
    this.store.add(enableWebglRenderer(this.term));
    const stats = terminalStats(statsId);
    stats.floodFramesLimited = floodFramesLimited;
    this.store.add(this.term.onRender(() => stats.frames++));
    if (options.onInput) {
      const onInput = options.onInput;
      this.store.add(this.term.onData((data) => onInput(data)));
    }
    const applyTheme = (): void => {
      const theme = currentTerminalTheme();
      this.term.options.theme = theme;
      // The padding around the grid belongs to the terminal too, so it takes the terminal's background.
      container.style.backgroundColor = theme.background ?? '';
    };
    applyTheme();
    this.store.add(onColorSchemeChange(applyTheme));

    const observer = new ResizeObserver(() => this.fitToContainer());
    observer.observe(container);
    this.store.add(toDisposable(() => observer.disconnect()));
    this.fitToContainer();
  }

  /**
   * Writes stream output and gives its credit back (`weight`, the stream's own count) only once xterm has parsed it,
   * so a flood slows the producer, not the UI.
   */
  writeAcked(data: string, subscription: Subscription, weight = data.length): void {
    noteOutput(data.length);
    const pieces = writeSlices(data);
    const last = pieces.length - 1;
    pieces.forEach((piece, i) => {
      this.term.write(piece, () => {
        if (i === last) subscription.ack(weight);
        terminalStats(this.statsId).bytesParsed += piece.length;
      });
    });
  }

  /**
   * The same for output still in its UTF-8 bytes, `characters` long once decoded (its credit): xterm decodes UTF-8
   * itself, faster than a TextDecoder into a string it would then convert again.
   */
  writeUtf8Acked(bytes: Uint8Array, subscription: Subscription, characters: number): void {
    noteOutput(characters);
    this.term.write(bytes, () => {
      subscription.ack(characters);
      terminalStats(this.statsId).bytesParsed += characters;
    });
  }

  /** Clears screen and scrollback (RIS), queued behind pending writes, before a stream replays from its start. */
  reset(): void {
    this.term.write('\x1bc');
  }

  /** Fits the grid to the card. A hidden card has no size; it is fitted again when it shows (the observer fires). */
  fitToContainer(): void {
    if (this.store.isDisposed) return;
    const proposed = this.fit.proposeDimensions();
    if (!proposed || !Number.isFinite(proposed.cols) || !Number.isFinite(proposed.rows) || proposed.cols < 2 || proposed.rows < 1) return;
    if (proposed.cols !== this.term.cols || proposed.rows !== this.term.rows) this.fit.fit();
    this.options.onFitted?.();
  }

  private handleKey(event: KeyboardEvent): boolean {
    if (event.type === 'keydown' && event.ctrlKey && event.shiftKey && event.code === 'KeyF') {
      event.preventDefault();
      this.options.onFindRequested();
      return false;
    }
    return handleClipboardKeys(this.term, event);
  }

  focus(): void {
    this.term.focus();
  }

  dispose(): void {
    this.store.dispose();
    this.term.dispose();
    forgetTerminalStats(this.statsId);
  }
}
