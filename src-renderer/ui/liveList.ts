import type { ContractMap, LiveListFrame, LiveListItem, LiveListKey, LiveListNames, StreamNames } from '../../src-preload/contract/define';
import type { RpcError } from '../../src-preload/contract/errors';
import type { Disposable } from '../../src-preload/rpc/disposable';
import type { RpcClient, Subscription } from '../../src-preload/rpc/rpcClient';

/** A live list as the UI shows it: the items in the host's order (new ones last), whether the first snapshot came. */
export interface LiveListState<T> {
  readonly items: readonly T[];
  readonly loaded: boolean;
  /** Why the list stopped following the host (an unknown session, say); null while it follows. */
  readonly error: RpcError | null;
}

export const emptyLiveList: LiveListState<never> = { items: [], loaded: false, error: null };

/**
 * The list after one frame: a snapshot replaces everything, an upsert replaces the item with its id where it stands
 * (or adds it last), a remove drops the id (an id the list does not hold is nothing to do). Unchanged lists keep their
 * identity, so React skips renders that would show the same thing.
 */
export function applyLiveFrame<T>(items: readonly T[], frame: LiveListFrame<T>, idOf: (item: T) => string): readonly T[] {
  switch (frame.kind) {
    case 'snapshot':
      return frame.items;
    case 'upsert': {
      const id = idOf(frame.item);
      const index = items.findIndex((item) => idOf(item) === id);
      if (index === -1) return [...items, frame.item];
      const next = items.slice();
      next[index] = frame.item;
      return next;
    }
    case 'remove': {
      const next = items.filter((item) => idOf(item) !== frame.id);
      return next.length === items.length ? items : next;
    }
  }
}

export interface LiveListFollower extends Disposable {
  /** Subscribes again: a fresh snapshot replaces the list (for what the host cannot announce, e.g. another process). */
  refresh(): void;
}

/**
 * Follows one live list over one connection, telling `onState` each new state. A stream cut off because this page fell
 * behind (OVERFLOW) is opened again at once, and its fresh snapshot replaces what was missed; a closed connection is
 * left to the next client (the hook follows again on it); any other end is reported in `error`, the items kept.
 */
export function followLiveList<C extends ContractMap, K extends LiveListNames<C>>(
  client: RpcClient<C>,
  name: K,
  def: { readonly list: { idOf(item: LiveListItem<C, K>): string } },
  key: LiveListKey<C, K>,
  onState: (state: LiveListState<LiveListItem<C, K>>) => void,
): LiveListFollower {
  type T = LiveListItem<C, K>;
  const idOf = (item: T): string => def.list.idOf(item);
  let state: LiveListState<T> = emptyLiveList;
  let subscription: Subscription | undefined;
  let disposed = false;
  const set = (next: LiveListState<T>): void => {
    if (next === state) return;
    state = next;
    onState(state);
  };
  const open = (): void => {
    subscription?.dispose();
    let current: Subscription | undefined = undefined;
    // A live list is a stream: the type system only cannot see that K, a live list's name, is a stream's name.
    current = client.subscribe(name as unknown as StreamNames<C>, key as never, {
      onItem: (item) => {
        if (subscription !== current) return;
        const frame = item as LiveListFrame<T>;
        const items = applyLiveFrame(state.items, frame, idOf);
        if (frame.kind === 'snapshot') set({ items, loaded: true, error: null });
        else if (items !== state.items) set({ ...state, items });
      },
      onEnd: (error) => {
        if (disposed || subscription !== current || error?.code === 'CLOSED') return;
        if (error?.code === 'OVERFLOW') open();
        else if (error) set({ ...state, error });
      },
    });
    subscription = current;
  };
  open();
  return {
    refresh: () => {
      if (!disposed) open();
    },
    dispose: () => {
      disposed = true;
      subscription?.dispose();
      subscription = undefined;
    },
  };
}
