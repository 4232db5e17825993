import type { CallNames, CallReq, CallRes, ContractMap, StreamItem, StreamKey, StreamNames } from '../contract/define';
import { RpcError } from '../contract/errors';
import { DisposableStore, type Disposable } from './disposable';
import { decodeText, readBinaryItem, utf16Length } from './binaryFrame';
import { ServerFrame } from './frames';
import type { Transport } from './transport';

export interface SubscribeOptions {
  /** Units of credit granted up front (characters for terminal output). */
  credit?: number;
  /**
   * When true the consumer calls `ack(weight)` itself once an item is really done with (xterm has parsed it),
   * so the producer is held back by the consumer's real speed rather than by the socket's.
   */
  manualAck?: boolean;
}

export interface Subscription extends Disposable {
  ack(weight: number): void;
}

interface StreamHandlers<T> {
  onItem(item: T): void;
  /**
   * For a stream whose contract declares a text form: items that arrive as raw UTF-8 come here as those bytes,
   * undecoded, with their weight (the length of the text they encode, as the host counted it), instead of through
   * `onItem`. For a consumer that reads UTF-8 itself (xterm.js): decoding into a string first only costs it time.
   */
  onTextBytes?(bytes: Uint8Array, weight: number): void;
  onEnd?(error?: RpcError): void;
}

interface OpenStream {
  name: string;
  credit: number;
  manualAck: boolean;
  weight: (item: unknown) => number;
  parse: (item: unknown) => unknown;
  fromText: ((text: string) => unknown) | undefined;
  handlers: StreamHandlers<unknown>;
  pendingAck: number;
  unprocessed: number;
}

/** Typed client for the contract: `client.call('session.list', {})` is checked against the map at compile time. */
export class RpcClient<C extends ContractMap> implements Disposable {
  private nextId = 1;
  private readonly pending = new Map<number, { method: string; resolve: (v: unknown) => void; reject: (e: RpcError) => void }>();
  private readonly streams = new Map<number, OpenStream>();
  private readonly store = new DisposableStore();
  private closedReason: string | undefined;

  constructor(
    private readonly contract: C,
    private readonly transport: Transport,
  ) {
    this.store.add(transport.onMessage((raw) => this.receive(raw)));
    this.store.add(transport.onClose((reason) => this.shutDown(reason)));
  }

  get isClosed(): boolean {
    return this.closedReason !== undefined;
  }

  call<K extends CallNames<C>>(method: K, params: CallReq<C, K>): Promise<CallRes<C, K>> {
    if (this.closedReason !== undefined) return Promise.reject(new RpcError('CLOSED', `connection closed: ${this.closedReason}`));
    const id = this.nextId++;
    return new Promise<CallRes<C, K>>((resolve, reject) => {
      this.pending.set(id, { method, resolve: resolve as (v: unknown) => void, reject });
      this.transport.send(JSON.stringify({ t: 'call', id, method, params }));
    });
  }

  subscribe<K extends StreamNames<C>>(
    name: K,
    key: StreamKey<C, K>,
    handlers: StreamHandlers<StreamItem<C, K>>,
    options: SubscribeOptions = {},
  ): Subscription {
    const def = this.contract[name];
    if (def?.kind !== 'stream') throw new RpcError('UNKNOWN_STREAM', `no stream named "${name}"`);
    const id = this.nextId++;
    const credit = options.credit ?? 1000;
    const open: OpenStream = {
      name,
      credit,
      manualAck: options.manualAck ?? false,
      weight: def.weight as (item: unknown) => number,
      parse: def.check ? (item) => (def.check!(item) ? item : def.item.parse(item)) : (item) => def.item.parse(item),
      fromText: def.text?.fromText,
      handlers: handlers as StreamHandlers<unknown>,
      pendingAck: 0,
      unprocessed: 0,
    };
    if (this.closedReason !== undefined) {
      void Promise.resolve().then(() => handlers.onEnd?.(new RpcError('CLOSED', `connection closed: ${this.closedReason}`)));
    } else {
      this.streams.set(id, open);
      this.transport.send(JSON.stringify({ t: 'sub', id, stream: name, key, credit }));
    }
    return {
      ack: (weight) => this.ack(id, weight),
      dispose: () => {
        if (this.streams.delete(id) && this.closedReason === undefined) this.transport.send(JSON.stringify({ t: 'unsub', id }));
      },
    };
  }

  private ack(id: number, weight: number): void {
    const open = this.streams.get(id);
    if (!open) return;
    open.pendingAck += weight;
    open.unprocessed = Math.max(0, open.unprocessed - weight);
    // Batch credit frames, but flush as soon as the consumer is idle so the producer can resume below low water.
    if (open.pendingAck >= open.credit / 8 || open.unprocessed === 0) {
      const credit = open.pendingAck;
      open.pendingAck = 0;
      if (credit > 0 && this.closedReason === undefined) this.transport.send(JSON.stringify({ t: 'credit', id, credit }));
    }
  }

  private receive(raw: unknown): void {
    if (typeof raw !== 'string') {
      this.receiveBinary(raw);
      return;
    }
    let frame: ServerFrame;
    try {
      frame = ServerFrame.parse(JSON.parse(String(raw)));
    } catch {
      return; // The host never sends malformed frames; ignoring beats crashing the UI if one ever arrives.
    }
    switch (frame.t) {
      case 'ok': {
        const call = this.pending.get(frame.id);
        if (!call) return;
        this.pending.delete(frame.id);
        const def = this.contract[call.method];
        try {
          call.resolve(def?.kind === 'call' ? def.res.parse(frame.result) : frame.result);
        } catch {
          call.reject(new RpcError('INTERNAL', `the host answered ${call.method} with a value outside the contract`));
        }
        return;
      }
      case 'err': {
        const error = RpcError.fromBody(frame.error);
        if (frame.id !== null && this.pending.has(frame.id)) {
          const call = this.pending.get(frame.id)!;
          this.pending.delete(frame.id);
          call.reject(error);
        } else if (frame.id !== null && this.streams.has(frame.id)) {
          const open = this.streams.get(frame.id)!;
          this.streams.delete(frame.id);
          open.handlers.onEnd?.(error);
        }
        return;
      }
      case 'item':
        this.deliver(frame.id, frame.item);
        return;
      case 'items':
        // One by one, as separate frames would have come; a consumer that ends the stream stops the rest.
        for (const item of frame.items) this.deliver(frame.id, item);
        return;
      case 'end': {
        const open = this.streams.get(frame.id);
        if (!open) return;
        this.streams.delete(frame.id);
        open.handlers.onEnd?.(frame.error ? RpcError.fromBody(frame.error) : undefined);
        return;
      }
    }
  }

  /** A stream item sent as bytes: only streams whose contract declares a text form may arrive this way. */
  private receiveBinary(raw: unknown): void {
    const binary = readBinaryItem(raw);
    const open = binary && this.streams.get(binary.id);
    if (!binary || !open?.fromText) return; // Same policy as for malformed text frames: ignore rather than crash.
    const { onTextBytes } = open.handlers;
    if (!onTextBytes) {
      this.deliver(binary.id, open.fromText(decodeText(binary.bytes)));
      return;
    }
    const weight = utf16Length(binary.bytes);
    open.unprocessed += weight;
    onTextBytes(binary.bytes, weight);
    if (!open.manualAck) this.ack(binary.id, weight);
  }

  private deliver(id: number, rawItem: unknown): void {
    const open = this.streams.get(id);
    if (!open) return;
    let item: unknown;
    try {
      item = open.parse(rawItem);
    } catch {
      // The host checks what it sends, so this is a bug there: the stream ends with an error its consumer shows.
      this.streams.delete(id);
      if (this.closedReason === undefined) this.transport.send(JSON.stringify({ t: 'unsub', id }));
      open.handlers.onEnd?.(new RpcError('INTERNAL', `the host sent ${open.name} an item outside the contract`));
      return;
    }
    const weight = open.weight(item);
    open.unprocessed += weight;
    open.handlers.onItem(item);
    if (!open.manualAck) this.ack(id, weight);
  }

  private shutDown(reason: string): void {
    if (this.closedReason !== undefined) return;
    this.closedReason = reason || 'closed';
    const error = new RpcError('CLOSED', `connection closed: ${this.closedReason}`);
    for (const call of this.pending.values()) call.reject(error);
    this.pending.clear();
    const streams = [...this.streams.values()];
    this.streams.clear();
    for (const open of streams) open.handlers.onEnd?.(error);
  }

  dispose(): void {
    this.shutDown('client disposed');
    this.store.dispose();
    this.transport.close('client disposed');
  }
}
