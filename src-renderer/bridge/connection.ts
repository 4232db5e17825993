import { contract } from '../../src-preload/contract';
import { DisposableStore, type Disposable } from '../../src-preload/rpc/disposable';
import { RpcClient } from '../../src-preload/rpc/rpcClient';
import type { Transport } from '../../src-preload/rpc/transport';
import { Backoff } from './backoff';
import { useConnection, type OmniClient } from './connectionStore';
import { messagePortTransport, onPreloadPort } from './messagePortTransport';
import { accessToken } from './token';
import { openWebSocketTransport } from './webSocketTransport';

/** Inside Electron the page is served from app:// and talks over the preload's MessagePort. */
export function isElectronWindow(): boolean {
  return window.location.protocol === 'app:';
}

function webSocketUrl(token: string): string {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${window.location.host}/rpc?token=${encodeURIComponent(token)}`;
}

/**
 * Keeps one live RpcClient in the connection store. When the host goes away the store says `reconnecting`
 * and a new connection is tried with backoff (browser) or awaited from the preload (Electron); features see
 * a new `client` and rebuild their subscriptions from it.
 */
export class Connection implements Disposable {
  private readonly store = new DisposableStore();
  private readonly backoff = new Backoff();
  private current: { client: OmniClient; owner: DisposableStore } | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private everConnected = false;

  start(): void {
    if (isElectronWindow()) {
      this.store.add(onPreloadPort((port) => void this.adopt(messagePortTransport(port))));
    } else {
      void this.connectWebSocket();
    }
  }

  private async connectWebSocket(): Promise<void> {
    if (this.store.isDisposed) return;
    const token = accessToken();
    if (!token) {
      this.failed('no access token: open the address printed by `omni serve` (it ends in ?token=…)');
      return;
    }
    try {
      const transport = await openWebSocketTransport(webSocketUrl(token));
      await this.adopt(transport);
    } catch (error) {
      this.failed((error as Error).message);
    }
  }

  /** Makes `transport` the live connection once the host answers `host.info`, replacing any previous one. */
  private async adopt(transport: Transport): Promise<void> {
    if (this.store.isDisposed) {
      transport.close('page closed');
      return;
    }
    this.drop();
    const owner = new DisposableStore();
    const client = new RpcClient(contract, transport);
    owner.add(client);
    const entry = { client, owner };
    this.current = entry;
    owner.add(transport.onClose((reason) => this.lost(entry, reason)));
    try {
      const hostInfo = await client.call('host.info', {});
      if (this.current !== entry) return;
      this.everConnected = true;
      this.backoff.reset();
      useConnection.setState({ status: 'connected', client, hostInfo, lastError: null });
    } catch (error) {
      if (this.current === entry) this.lost(entry, (error as Error).message);
    }
  }

  private lost(entry: { client: OmniClient; owner: DisposableStore }, reason: string): void {
    if (this.current !== entry) return;
    this.drop();
    this.failed(reason);
  }

  /** Forgets the live connection; disposing its client ends its streams, which their owners treat as a disconnect. */
  private drop(): void {
    const entry = this.current;
    this.current = null;
    entry?.owner.dispose();
  }

  private failed(reason: string): void {
    if (this.store.isDisposed) return;
    useConnection.setState({ status: this.everConnected ? 'reconnecting' : 'connecting', client: null, lastError: reason });
    // Electron: the preload posts a fresh port when the host process is back, so there is nothing to poll.
    if (isElectronWindow()) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => void this.connectWebSocket(), this.backoff.next());
  }

  dispose(): void {
    clearTimeout(this.retryTimer);
    this.drop();
    this.store.dispose();
  }
}
