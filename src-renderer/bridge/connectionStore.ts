import { create } from 'zustand';
import type { Contract, HostInfo } from '../../src-preload/contract';
import type { RpcClient } from '../../src-preload/rpc/rpcClient';

export type OmniClient = RpcClient<Contract>;

/** `connecting` before the first connection, `reconnecting` after a live one was lost. */
export type ConnectionStatus = 'connecting' | 'connected' | 'reconnecting';

export interface ConnectionState {
  status: ConnectionStatus;
  /**
   * The live client, or null while there is none. Features key their effects on this object: a new client
   * means a new connection, so they subscribe again and re-fetch what they show.
   */
  client: OmniClient | null;
  hostInfo: HostInfo | null;
  /** Why the last attempt failed, shown in the status bar's tooltip. */
  lastError: string | null;
}

export const useConnection = create<ConnectionState>(() => ({
  status: 'connecting',
  client: null,
  hostInfo: null,
  lastError: null,
}));
