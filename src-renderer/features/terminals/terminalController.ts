import { type RpcError, type TerminalEvent } from '../../../src-preload/contract';
import type { Disposable } from '../../../src-preload/rpc/disposable';
import type { Subscription } from '../../../src-preload/rpc/rpcClient';
import type { OmniClient } from '../../bridge/connectionStore';
import { SCREEN_OUTPUT_CREDIT, XtermScreen } from '../../ui/screen/xtermScreen';

const RESIZE_DEBOUNCE_MS = 80;

export interface TerminalControllerEvents {
  /** The shell exited (or the stream says it had already exited when we attached). */
  onExit(exitCode: number | null): void;
  /** Ctrl+Shift+F inside the terminal: the card moves focus to its search box. */
  onFindRequested(): void;
}

/**
 * One xterm screen bound to one host terminal. The screen lives as long as the card; connections come and go
 * (`attach` with each new client), and every attach replays the host's scrollback into a freshly reset screen.
 */
export class TerminalController implements Disposable {
  private readonly screen: XtermScreen;
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
    this.screen = new XtermScreen(id, container, {
      onInput: (data) => this.sendInput(data),
      onFindRequested: () => this.events.onFindRequested(),
      onFitted: () => this.scheduleResize(),
    });
  }

  get term(): XtermScreen['term'] {
    return this.screen.term;
  }

  get search(): XtermScreen['search'] {
    return this.screen.search;
  }

  /** Binds to a connection (or to none while reconnecting): re-subscribes the output and re-sends the size. */
  attach(client: OmniClient | null): void {
    this.output?.dispose();
    this.output = null;
    this.client = client;
    if (!client) return;
    // The host replays its whole scrollback on subscribe: clear what is shown so the replay does not duplicate it.
    if (this.attachedOnce) this.screen.reset();
    this.attachedOnce = true;
    const subscription: Subscription = client.subscribe(
      'terminal.output',
      { id: this.id },
      {
        onItem: (event) => this.receive(event, subscription),
        // Output arrives as UTF-8 and goes to xterm as such (the exit notice still comes through onItem).
        onTextBytes: (bytes, characters) => this.screen.writeUtf8Acked(bytes, subscription, characters),
        onEnd: (error) => this.ended(client, error),
      },
      { credit: SCREEN_OUTPUT_CREDIT, manualAck: true },
    );
    this.output = subscription;
    this.sentSize = { cols: 0, rows: 0 };
    this.scheduleResize();
  }

  private receive(event: TerminalEvent, subscription: Subscription): void {
    if (event.type === 'data') {
      this.screen.writeAcked(event.data, subscription);
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
    this.screen.focus();
  }

  dispose(): void {
    clearTimeout(this.resizeTimer);
    this.output?.dispose();
    this.output = null;
    this.client = null;
    this.screen.dispose();
  }
}
