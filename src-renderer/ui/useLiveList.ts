import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { contract, type Contract } from '../../src-preload/contract';
import type { LiveListItem, LiveListKey, LiveListNames } from '../../src-preload/contract/define';
import { useConnection } from '../bridge/connectionStore';
import { errorMessage } from './errorMessage';
import { emptyLiveList, followLiveList, type LiveListFollower, type LiveListState } from './liveList';

export interface LiveList<T> {
  readonly items: readonly T[];
  /** False until the first snapshot came: "nothing yet" is not "none". */
  readonly loaded: boolean;
  /** Why the list stopped following the host, as a sentence; null while it follows. */
  readonly error: string | null;
  /** A fresh snapshot from the host, for changes it cannot announce (made by another host process). */
  refresh(): void;
}

/**
 * One live list of the contract, kept for the component's life: followed on every (re)connection (a new client
 * brings a fresh snapshot), reset when the list it shows changes (another session), none while `key` is null.
 */
export function useLiveList<K extends LiveListNames<Contract>>(name: K, key: LiveListKey<Contract, K> | null): LiveList<LiveListItem<Contract, K>> {
  type T = LiveListItem<Contract, K>;
  const client = useConnection((s) => s.client);
  // The key by value: callers write it inline ({ sessionId }), a new object on every render.
  const keyText = key === null ? null : JSON.stringify(key);
  const which = `${name} ${keyText}`;
  const [shown, setShown] = useState<{ which: string; state: LiveListState<T> }>({ which, state: emptyLiveList });
  const follower = useRef<LiveListFollower | null>(null);
  useEffect(() => {
    if (!client || keyText === null) return;
    // Each of these names its items; the union of the seven is more than TypeScript settles against one item type.
    const def = contract[name] as unknown as { list: { idOf(item: T): string } };
    const following = followLiveList(client, name, def, JSON.parse(keyText) as LiveListKey<Contract, K>, (state) => setShown({ which, state }));
    follower.current = following;
    return () => {
      following.dispose();
      if (follower.current === following) follower.current = null;
    };
  }, [client, name, keyText, which]);
  // Another list than the one shown (a new session): nothing of the old one may show meanwhile. A new connection for
  // the same list keeps its items until the fresh snapshot replaces them.
  const state = shown.which === which ? shown.state : emptyLiveList;
  const refresh = useCallback(() => follower.current?.refresh(), []);
  return useMemo(() => ({ items: state.items, loaded: state.loaded, error: state.error ? errorMessage(state.error) : null, refresh }), [state, refresh]);
}
