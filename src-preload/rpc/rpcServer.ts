import type { z } from 'zod';
import type { CallDef, CallNames, ContractMap, StreamDef, StreamItem, StreamNames } from '../contract/define';
import { RpcError, invalidParams } from '../contract/errors';
import { CreditWindow } from './creditWindow';
import { DisposableStore, type Disposable } from './disposable';
import { encodeTextItem, encodeUtf8Item, MAX_BINARY_ID, type Utf8Text } from './binaryFrame';
import { ClientFrame, MAX_FRAME_CHARS, type ServerFrame } from './frames';
import type { Transport } from './transport';

/** What a handler knows about the connection it serves. */
export interface ConnectionContext {
  readonly connectionId: number;
  readonly transport: 'websocket' | 'messageport' | 'memory';
}

/** The producer's end of one stream subscription. */
export interface StreamSink<T> {
  push(item: T): void;
  /**
   * For a stream whose contract declares a text form: pushes the item `fromText(text.text)`, handed over as its
   * UTF-8 bytes. It travels as those bytes (no decoding, no re-encoding, no schema check of a string the host read
   * itself), weighing `text.chars`, which must be what the stream's weight gives that item (its text's length).
   * Optional: a sink made by hand (tests, in-process callers) may leave it out, and producers then push the item.
   */
  pushText?(text: Utf8Text): void;
  /** Ends the stream; an error that is not an RpcError reaches the client as INTERNAL (and onInternalError). */
  end(error?: Error): void;
  /** Registers what to do when the consumer falls behind (e.g. pause a pty) and when it catches up. */
  onFlowControl(pause: () => void, resume: () => void): void;
  readonly isPaused: boolean;
  readonly isClosed: boolean;
}

type CallHandler<C extends ContractMap, K extends CallNames<C>> = (
  params: C[K] extends CallDef<infer Req> ? z.output<Req> : never,
  ctx: ConnectionContext,
) => Promise<C[K] extends CallDef<z.ZodType, infer Res> ? z.input<Res> : never> | (C[K] extends CallDef<z.ZodType, infer Res> ? z.input<Res> : never);

type StreamHandler<C extends ContractMap, K extends StreamNames<C>> = (
  key: C[K] extends StreamDef<infer Key> ? z.output<Key> : never,
  sink: StreamSink<StreamItem<C, K>>,
  ctx: ConnectionContext,
) => Disposable | void;

/** One handler per name in the contract; the compiler refuses a missing or misspelled one. */
export type Handlers<C extends ContractMap> = { [K in CallNames<C>]: CallHandler<C, K> } & {
  [K in StreamNames<C>]: StreamHandler<C, K>;
};

export interface RpcServerOptions {
  maxFrameChars?: number;
  /** Where unexpected handler failures are reported; the client only sees a generic INTERNAL error. */
  onInternalError?: (method: string, error: unknown) => void;
  /**
   * Runs `flush` once the producers' current burst is over (the host passes process.nextTick: after the event loop
   * turn's microtasks). With it, consecutive JSON items of one subscription go out as one `items` frame; without it,
   * each item is a frame of its own. Every other frame flushes the batch first, so the order on the wire is the
   * order things were sent. A stream of many small items (an ACP agent's chunks, thousands a second) otherwise costs
   * both ends a frame each: a WebSocket message, a parse, a credit frame back.
   */
  batch?: (flush: () => void) => void;
}

let nextConnectionId = 1;

/** How much JSON a batched `items` frame gathers before it goes out without waiting for the flush. */
const MAX_BATCH_CHARS = 256 * 1024;

/** An item queued in a credit window that is already UTF-8 (StreamSink.pushText). */
class RawText {
  constructor(readonly utf8: Utf8Text) {}
}

/**
 * Serves one connection. Every incoming frame is treated as hostile: size-checked, parsed, validated against the
 * frame schema and then against the contract, and answered with a typed error when anything is off.
 */
export class RpcServer<C extends ContractMap> implements Disposable {
  // A stream's producer that fails to stop is reported like a failing handler, never thrown into the transport.
  private readonly store = new DisposableStore((error) => this.options.onInternalError?.('connection', error));
  private readonly subscriptions = new Map<number, { window: CreditWindow<unknown>; owner: DisposableStore }>();
  private readonly maxFrameChars: number;
  readonly context: ConnectionContext;
  /** JSON items of one subscription waiting for the batch's flush (options.batch), as JSON, in the order pushed. */
  private batched: { id: number; items: string[]; chars: number } | null = null;
  private flushScheduled = false;

  constructor(
    private readonly contract: C,
    private readonly handlers: Handlers<C>,
    private readonly transport: Transport,
    transportKind: ConnectionContext['transport'],
    private readonly options: RpcServerOptions = {},
  ) {
    this.maxFrameChars = options.maxFrameChars ?? MAX_FRAME_CHARS;
    this.context = { connectionId: nextConnectionId++, transport: transportKind };
    this.store.add(transport.onMessage((raw) => this.receive(raw)));
    this.store.add(transport.onClose(() => this.dispose()));
  }

  private send(frame: ServerFrame): void {
    this.flushItems();
    if (this.store.isDisposed) return;
    this.transport.send(JSON.stringify(frame));
  }

  /** A binary frame, after the items batched before it. */
  private sendBinary(frame: Uint8Array<ArrayBuffer>): void {
    this.flushItems();
    if (!this.store.isDisposed) this.transport.send(frame);
  }

  private sendItem(id: number, item: unknown): void {
    const batch = this.options.batch;
    if (!batch) {
      this.send({ t: 'item', id, item });
      return;
    }
    if (this.batched && this.batched.id !== id) this.flushItems();
    const json = JSON.stringify(item) ?? 'null';
    const batched = (this.batched ??= { id, items: [], chars: 0 });
    batched.items.push(json);
    batched.chars += json.length;
    // A long synchronous burst (a stored conversation replayed at subscribe) goes out in frames of bounded size.
    if (batched.chars >= MAX_BATCH_CHARS) this.flushItems();
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    batch(() => {
      this.flushScheduled = false;
      this.flushItems();
    });
  }

  private flushItems(): void {
    const batched = this.batched;
    if (!batched) return;
    this.batched = null;
    if (this.store.isDisposed) return;
    const { id, items } = batched;
    this.transport.send(items.length === 1 ? `{"t":"item","id":${id},"item":${items[0]}}` : `{"t":"items","id":${id},"items":[${items.join(',')}]}`);
  }

  private fail(id: number | null, error: RpcError): void {
    this.send({ t: 'err', id, error: error.toBody() });
  }

  private receive(raw: unknown): void {
    if (typeof raw !== 'string') {
      this.fail(null, new RpcError('BAD_FRAME', 'frames must be JSON text'));
      return;
    }
    if (raw.length > this.maxFrameChars) {
      this.fail(null, new RpcError('FRAME_TOO_LARGE', `frame of ${raw.length} characters exceeds the limit of ${this.maxFrameChars}`));
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      this.fail(null, new RpcError('BAD_FRAME', 'frame is not valid JSON'));
      return;
    }
    const parsed = ClientFrame.safeParse(json);
    if (!parsed.success) {
      const id = typeof json === 'object' && json !== null && Number.isSafeInteger((json as { id?: unknown }).id)
        ? ((json as { id: number }).id)
        : null;
      this.fail(id, invalidParams('malformed frame', parsed.error).withCode('BAD_FRAME'));
      return;
    }
    const frame = parsed.data;
    switch (frame.t) {
      case 'call':
        void this.handleCall(frame.id, frame.method, frame.params);
        return;
      case 'sub':
        this.handleSubscribe(frame.id, frame.stream, frame.key, frame.credit);
        return;
      case 'credit':
        this.subscriptions.get(frame.id)?.window.grant(frame.credit);
        return;
      case 'unsub':
        this.subscriptions.get(frame.id)?.owner.dispose();
        return;
    }
  }

  private lookup(name: string): CallDef | StreamDef | undefined {
    return Object.hasOwn(this.contract, name) ? this.contract[name] : undefined;
  }

  private async handleCall(id: number, method: string, params: unknown): Promise<void> {
    const def = this.lookup(method);
    if (def?.kind !== 'call') {
      this.fail(id, new RpcError('UNKNOWN_METHOD', `no method named "${method}"`));
      return;
    }
    const req = def.req.safeParse(params ?? {});
    if (!req.success) {
      this.fail(id, invalidParams(`invalid parameters for ${method}`, req.error));
      return;
    }
    try {
      const handler = this.handlers[method as CallNames<C>] as (p: unknown, ctx: ConnectionContext) => unknown;
      const result = await handler(req.data, this.context);
      const res = def.res.safeParse(result);
      if (!res.success) throw new Error(`handler for ${method} returned a value outside its contract: ${res.error.message}`);
      this.send({ t: 'ok', id, result: res.data });
    } catch (error) {
      this.fail(id, this.toRpcError(method, error));
    }
  }

  private handleSubscribe(id: number, name: string, rawKey: unknown, credit: number): void {
    const def = this.lookup(name);
    if (def?.kind !== 'stream') {
      this.fail(id, new RpcError('UNKNOWN_STREAM', `no stream named "${name}"`));
      return;
    }
    if (this.subscriptions.has(id)) {
      this.fail(id, new RpcError('CONFLICT', `subscription id ${id} is already in use`));
      return;
    }
    const key = def.key.safeParse(rawKey ?? {});
    if (!key.success) {
      this.fail(id, invalidParams(`invalid key for ${name}`, key.error));
      return;
    }
    const owner = new DisposableStore((error) => this.options.onInternalError?.(name, error));
    let pause = (): void => {};
    let resume = (): void => {};
    let closed = false;
    // A producer that ends still has its queued items delivered first; an overflow ends at once.
    const end = (cause?: Error): void => {
      if (closed) return;
      closed = true;
      const error = cause === undefined ? undefined : this.toRpcError(name, cause);
      const finish = (): void => {
        this.send(error ? { t: 'end', id, error: error.toBody() } : { t: 'end', id });
        owner.dispose();
      };
      if (error?.code === 'OVERFLOW') finish();
      else window.whenDrained(finish);
    };
    // Resume once a quarter of the window is back, not near empty: the consumer then never drains dry while the
    // producer refills the pipe, which for a pty takes a while (cat, the kernel and the host each need a core to
    // move every 4 KB). With a lower watermark the renderer sits idle waiting for data; the watermarks tried and
    // their figures are in docs/performance.md#terminal-throughput.
    const asText = id <= MAX_BINARY_ID ? def.text : undefined;
    const window = new CreditWindow<unknown>(
      credit,
      Math.floor((credit * 3) / 4),
      Math.max(credit * 16, 1 << 20),
      (item) => {
        if (item instanceof RawText) {
          this.sendBinary(encodeUtf8Item(id, item.utf8.bytes));
          return;
        }
        const text = asText?.toText(item);
        if (text === undefined) this.sendItem(id, item);
        else this.sendBinary(encodeTextItem(id, text));
      },
      () => pause(),
      () => resume(),
    );
    owner.add({
      dispose: () => {
        closed = true;
        this.subscriptions.delete(id);
      },
    });
    this.subscriptions.set(id, { window, owner });
    const sink: StreamSink<unknown> = {
      push: (item) => {
        if (closed) return;
        const checked = def.check?.(item) ? ({ success: true, data: item } as const) : def.item.safeParse(item);
        if (!checked.success) {
          this.options.onInternalError?.(name, checked.error);
          end(new RpcError('INTERNAL', `stream ${name} produced an item outside its contract`));
          return;
        }
        if (!window.push(checked.data, def.weight(checked.data))) {
          end(new RpcError('OVERFLOW', `stream ${name} fell too far behind and was closed; subscribe again`));
        }
      },
      pushText: (text) => {
        if (closed) return;
        if (!asText) {
          // No binary frames for this subscription (an id beyond the header's range): the item as JSON.
          if (!def.text) throw new Error(`stream ${name} has no text form; pushText is only for streams that have one`);
          sink.push(def.text.fromText(text.text));
          return;
        }
        if (!window.push(new RawText(text), text.chars)) {
          end(new RpcError('OVERFLOW', `stream ${name} fell too far behind and was closed; subscribe again`));
        }
      },
      end,
      onFlowControl: (onPause, onResume) => {
        pause = onPause;
        resume = onResume;
      },
      get isPaused() {
        return window.isPaused;
      },
      get isClosed() {
        return closed;
      },
    };
    try {
      const handler = this.handlers[name as StreamNames<C>] as (k: unknown, s: StreamSink<unknown>, c: ConnectionContext) => Disposable | void;
      const disposable = handler(key.data, sink, this.context);
      if (disposable) owner.add(disposable);
    } catch (error) {
      end(this.toRpcError(name, error));
    }
  }

  private toRpcError(method: string, error: unknown): RpcError {
    if (error instanceof RpcError) return error;
    this.options.onInternalError?.(method, error);
    return new RpcError('INTERNAL', `${method} failed unexpectedly; the host log has details`);
  }

  dispose(): void {
    for (const { owner } of [...this.subscriptions.values()]) owner.dispose();
    this.store.dispose();
  }
}
