import { Emitter } from '../../src-preload/rpc';
import type { LiveChange } from '../../src-preload/rpc/liveListHandler';

/** Items by id whose every put and drop fires a live-list change synchronously, as the host's services do. */
export function changingItems<T extends { id: string }>(initial: T[]) {
  const items = new Map(initial.map((item) => [item.id, item]));
  const changes = new Emitter<LiveChange<T>>();
  return {
    items,
    changes,
    put(item: T) {
      items.set(item.id, item);
      changes.fire({ kind: 'upsert', item });
    },
    drop(id: string) {
      items.delete(id);
      changes.fire({ kind: 'remove', id });
    },
  };
}
