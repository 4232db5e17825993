import { contract, type RpcError, type RunItem } from '../../../src-preload/contract';
import type { Disposable } from '../../../src-preload/rpc/disposable';
import type { Subscription } from '../../../src-preload/rpc/rpcClient';
import type { OmniClient } from '../../bridge/connectionStore';
import { SCREEN_OUTPUT_CREDIT, XtermScreen } from '../screen/xtermScreen';
import { viewOfRunItem, type RunNotice } from './runItemView';

export interface RunScreenEvents {
  /** An event item of the run (exit, kill, watcher match, ...), in order. */
  onNotice(notice: RunNotice): void;
  /** The stream ended: the run is over and everything it wrote is on the screen. */
  onComplete(): void;
  /** The host cannot give the run's items (it does not know the run, say); null again when a later attach starts. */
  onProblem(message: string | null): void;
  onFindRequested(): void;
}

const itemWeight = contract['exec.items'].weight;

/**
 * A run's items on a read-only xterm screen: replayed from the first item when the card opens, then live until the
 * run ends, flow controlled by credit like a terminal (credit goes back once xterm has parsed the output). After a
 * reconnection it continues after the last item it has shown, so nothing is shown twice and nothing is missed.
 */
export class RunScreenController implements Disposable {
  private readonly screen: XtermScreen;
  private client: OmniClient | null = null;
  private items: Subscription | null = null;
  private lastSeq = 0;
  private complete = false;

  /** Follows the run over `client` from the start (see attach); null: once a connection is attached. */
  constructor(
    private readonly runId: string,
    private readonly pty: boolean,
    container: HTMLElement,
    private readonly events: RunScreenEvents,
    client: OmniClient | null = null,
  ) {
    // Subscribed before the screen is made: setting up xterm takes tens of ms, during which the host already reads
    // the run's first items. None can arrive before this constructor returns (they come in a later task).
    this.attach(client);
    this.screen = new XtermScreen(runId, container, {
      onFindRequested: () => events.onFindRequested(),
      // A pipe gives bare "\n" line ends; a PTY already sends "\r\n".
      convertEol: !pty,
    });
  }

  get term(): XtermScreen['term'] {
    return this.screen.term;
  }

  get search(): XtermScreen['search'] {
    return this.screen.search;
  }

  /**
   * Binds to a connection (or to none while reconnecting) and follows the run's items from where the screen is. The
   * connection it already follows is left as it is.
   */
  attach(client: OmniClient | null): void {
    if (client !== null && client === this.client && this.items !== null) return;
    this.items?.dispose();
    this.items = null;
    this.client = client;
    if (!client || this.complete) return;
    this.events.onProblem(null);
    const subscription: Subscription = client.subscribe(
      'exec.items',
      { runId: this.runId, sinceSeq: this.lastSeq },
      {
        onItem: (item) => this.receive(item, subscription),
        onEnd: (error) => this.ended(client, error),
      },
      { credit: SCREEN_OUTPUT_CREDIT, manualAck: true },
    );
    this.items = subscription;
  }

  private receive(item: RunItem, subscription: Subscription): void {
    const weight = itemWeight(item);
    if (item.seq <= this.lastSeq) {
      subscription.ack(weight); // Already shown (a replay overlapping what we had): never twice.
      return;
    }
    this.lastSeq = item.seq;
    const view = viewOfRunItem(item, this.pty);
    if (view.kind === 'screen') {
      this.screen.writeAcked(view.text, subscription, weight);
      return;
    }
    subscription.ack(weight);
    if (view.kind === 'notice') this.events.onNotice(view.notice);
  }

  private ended(client: OmniClient, error: RpcError | undefined): void {
    if (this.client !== client) return;
    this.items = null;
    if (!error) {
      this.complete = true;
      this.events.onComplete();
      return;
    }
    if (error.code === 'CLOSED') return; // The connection went away; the next client attaches again.
    if (error.code === 'OVERFLOW') {
      this.attach(client); // We fell behind despite the credit: continue after the last item shown.
      return;
    }
    this.events.onProblem(error.message);
  }

  focus(): void {
    this.screen.focus();
  }

  dispose(): void {
    this.items?.dispose();
    this.items = null;
    this.client = null;
    this.screen.dispose();
  }
}
