import { FitAddon } from '@xterm/addon-fit';
import { SearchAddon } from '@xterm/addon-search';
import { WebLinksAddon } from '@xterm/addon-web-links';
import { Terminal as Xterm } from '@xterm/xterm';
import { type RpcError, type TerminalEvent } from '../../../src-preload/contract';
import { DisposableStore, toDisposable, type Disposable } from '../../../src-preload/rpc/disposable';
import type { Subscription } from '../../../src-preload/rpc/rpcClient';
import type { OmniClient } from '../../bridge/connectionStore';
import { handleClipboardKeys } from './clipboardKeys';
import { currentTerminalTheme, onColorSchemeChange } from './terminalTheme';
import { forgetTerminalStats, terminalStats } from './terminalStats';
import { enableWebglRenderer } from './webglRenderer';

/**
 * Credit granted to the output stream, in characters; the host pauses the pty while this much is unparsed and
 * resumes it below half of it. Measured by `npm run bench`: a 100k window left xterm idle a third of the
 * time waiting for the round trip; 1M keeps it busy while still bounding memory and Ctrl+C latency (~50 ms of parsing).
 */
const OUTPUT_CREDIT = 1_000_000;
const RESIZE_DEBOUNCE_MS = 80;

export interface TerminalControllerEvents {
  /** The shell exited (or the stream says it had already exited when we attached). */
  onExit(exitCode: number | null): void;
  /** Ctrl+Shift+F inside the terminal: the card moves focus to its search box. */
  onFindRequested(): void;
}

/**
 * One xterm instance bound to one host terminal. The xterm lives as long as the card; connections come and go
 * (`attach` with each new client), and every attach replays the host's scrollback into a freshly reset screen.
 */
export class TerminalController implements Disposable {
  readonly term: Xterm;
  readonly search = new SearchAddon();
  private readonly fit = new FitAddon();
  private readonly store = new DisposableStore();
  private client: OmniClient | null = null;
  private output: Subscription | null = null;
  private attachedOnce = false;
  private resizeTimer: ReturnType<typeof setTimeout> | undefined;
  private sentSize = { cols: 0, rows: 0 };

  constructor(
    private readonly id: string,
    container: HTMLElement,
    private readonly events: TerminalControllerEvents,
  ) {
    this.term = new Xterm({
      cursorBlink: true,
      fontFamily: 'ui-monospace, "SFMono-Regular", "DejaVu Sans Mono", Menlo, Consolas, monospace',
      fontSize: 13,
      scrollback: 10_000,
    });
    this.term.loadAddon(this.fit);
    this.term.loadAddon(this.search);
    this.term.loadAddon(new WebLinksAddon((_event, uri) => window.open(uri, '_blank', 'noopener,noreferrer')));
    this.term.attachCustomKeyEventHandler((event) => this.handleKey(event));
    this.term.open(container);
    this.store.add(enableWebglRenderer(this.term));
    this.store.add(this.term.onData((data) => this.sendInput(data)));
    const applyTheme = (): void => {
      const theme = currentTerminalTheme();
      this.term.options.theme = theme;
      // The padding around the grid belongs to the terminal too, so it takes the terminal's background.
      container.style.backgroundColor = theme.background ?? '';
    };
    applyTheme();
    this.store.add(onColorSchemeChange(applyTheme));
    terminalStats(id);

    const observer = new ResizeObserver(() => this.fitToContainer());
    observer.observe(container);
    this.store.add(toDisposable(() => observer.disconnect()));
    this.fitToContainer();
  }

  /** Binds to a connection (or to none while reconnecting): re-subscribes the output and re-sends the size. */
  attach(client: OmniClient | null): void {
    this.output?.dispose();
    this.output = null;
    this.client = client;
    if (!client) return;
    if (this.attachedOnce) {
      // The host replays its whole scrollback on subscribe; RIS, queued behind any pending writes, clears the
      // screen and scrollback first so the replay does not duplicate what is already shown.
      this.term.write('\x1bc');
    }
    this.attachedOnce = true;
    const subscription: Subscription = client.subscribe(
      'terminal.output',
      { id: this.id },
      {
        onItem: (event) => this.receive(event, subscription),
        onEnd: (error) => this.ended(client, error),
      },
      { credit: OUTPUT_CREDIT, manualAck: true },
    );
    this.output = subscription;
    this.sentSize = { cols: 0, rows: 0 };
    this.scheduleResize();
  }

  private receive(event: TerminalEvent, subscription: Subscription): void {
    if (event.type === 'data') {
      const { data } = event;
      // Credit goes back only once xterm has parsed the data, so a flood slows the shell, not the UI.
      this.term.write(data, () => {
        subscription.ack(data.length);
        terminalStats(this.id).bytesParsed += data.length;
      });
      return;
    }
    this.term.write(`\r\n\x1b[2m[process exited with code ${event.exitCode ?? `signal ${event.signal ?? '?'}`}]\x1b[0m\r\n`);
    this.events.onExit(event.exitCode);
  }

  private ended(client: OmniClient, error: RpcError | undefined): void {
    if (this.client !== client || !error) return;
    if (error.code === 'CLOSED') return; // The connection or the terminal went away; the owner decides what next.
    if (error.code === 'OVERFLOW') {
      this.attach(client); // We fell behind despite the credit; start over from the scrollback.
      return;
    }
    this.term.write(`\r\n\x1b[2m[${error.message}]\x1b[0m\r\n`);
  }

  private sendInput(data: string): void {
    this.client?.call('terminal.input', { id: this.id, data }).catch(() => {
      // Typing into a terminal that just went away is harmless; the card shows why.
    });
  }

  private handleKey(event: KeyboardEvent): boolean {
    if (event.type === 'keydown' && event.ctrlKey && event.shiftKey && event.code === 'KeyF') {
      event.preventDefault();
      this.events.onFindRequested();
      return false;
    }
    return handleClipboardKeys(this.term, event);
  }

  /** Fits the grid to the card. A hidden card has no size; it is fitted again when it shows (the observer fires). */
  fitToContainer(): void {
    if (this.store.isDisposed) return;
    const proposed = this.fit.proposeDimensions();
    if (!proposed || !Number.isFinite(proposed.cols) || !Number.isFinite(proposed.rows) || proposed.cols < 2 || proposed.rows < 1) return;
    if (proposed.cols !== this.term.cols || proposed.rows !== this.term.rows) this.fit.fit();
    this.scheduleResize();
  }

  private scheduleResize(): void {
    clearTimeout(this.resizeTimer);
    this.resizeTimer = setTimeout(() => {
      const { cols, rows } = this.term;
      if (!this.client || (cols === this.sentSize.cols && rows === this.sentSize.rows)) return;
      this.sentSize = { cols, rows };
      this.client.call('terminal.resize', { id: this.id, cols: Math.min(cols, 1000), rows: Math.min(rows, 500) }).catch(() => {
        this.sentSize = { cols: 0, rows: 0 };
      });
    }, RESIZE_DEBOUNCE_MS);
  }

  focus(): void {
    this.term.focus();
  }

  dispose(): void {
    clearTimeout(this.resizeTimer);
    this.output?.dispose();
    this.output = null;
    this.client = null;
    this.store.dispose();
    this.term.dispose();
    forgetTerminalStats(this.id);
  }
}
