import type { z } from 'zod';
import type { LiveListDef, LiveListFrame } from '../contract/define';
import { DisposableStore, type Disposable } from './disposable';
import type { ConnectionContext, StreamSink } from './rpcServer';

/** One change to a live list, as the host's service reports it: an item added or changed, or an id that left. */
export type LiveChange<T> = { kind: 'upsert'; item: T } | { kind: 'remove'; id: string };

/** Where a live list's items come from: the list as it is now, and every change to it from now on. */
export interface LiveListSource<Key, Item> {
  /** The key's list now. May be slow (a promise): changes heard meanwhile are sent after it, in order. */
  list(key: Key, ctx: ConnectionContext): readonly Item[] | Promise<readonly Item[]>;
  /**
   * Calls `emit` for each change to the key's list. It is subscribed before `list` is read, so no change falls between
   * the two; a change the list already shows is harmless (an upsert of what is there, a remove of what is gone).
   */
  onDidChange(key: Key, emit: (change: LiveChange<Item>) => void): Disposable;
}

/** A snapshot naming one item twice is a bug in the source: the client could not tell which of the two is current. */
export class DuplicateLiveListIdError extends Error {
  constructor(readonly id: string) {
    super(`a live list snapshot holds two items with the id "${id}"; its source's list() must give each item once`);
  }
}

type Sink<Item> = StreamSink<LiveListFrame<Item>>;

/**
 * The stream handler for a live list: subscribes to changes first, then reads the list, sends it as the snapshot and
 * after it every change heard meanwhile and since, in order. A resubscription (a new connection, or a client that
 * fell behind and was cut off with OVERFLOW) gets a fresh snapshot, so nobody has to replay what was missed.
 */
export function liveListHandler<Key extends z.ZodType, Item extends z.ZodType>(
  def: LiveListDef<Key, Item>,
  source: LiveListSource<z.output<Key>, z.output<Item>>,
): (key: z.output<Key>, sink: Sink<z.output<Item>>, ctx: ConnectionContext) => Disposable {
  type T = z.output<Item>;
  return (key, sink, ctx) => {
    const owner = new DisposableStore();
    // Changes heard before the snapshot has gone out wait here; undefined once it has.
    let waiting: LiveChange<T>[] | undefined = [];
    const send = (change: LiveChange<T>): void => {
      sink.push(change.kind === 'upsert' ? { kind: 'upsert', item: change.item } : { kind: 'remove', id: change.id });
    };
    owner.add(
      source.onDidChange(key, (change) => {
        if (waiting) waiting.push(change);
        else send(change);
      }),
    );
    const sendSnapshot = (items: readonly T[]): void => {
      if (owner.isDisposed) return;
      const seen = new Set<string>();
      for (const item of items) {
        const id = def.list.idOf(item);
        if (seen.has(id)) throw new DuplicateLiveListIdError(id);
        seen.add(id);
      }
      sink.push({ kind: 'snapshot', items: [...items] });
      const heard = waiting ?? [];
      waiting = undefined;
      for (const change of heard) send(change);
    };
    let listed: readonly T[] | Promise<readonly T[]>;
    try {
      listed = source.list(key, ctx);
      if (!(listed instanceof Promise)) sendSnapshot(listed);
    } catch (error) {
      // The server ends the stream with this error (typed if it is an RpcError); nothing must stay subscribed.
      owner.dispose();
      throw error;
    }
    if (listed instanceof Promise) {
      listed.then(sendSnapshot).catch((error: unknown) => {
        owner.dispose();
        sink.end(error instanceof Error ? error : new Error(String(error)));
      });
    }
    return owner;
  };
}
