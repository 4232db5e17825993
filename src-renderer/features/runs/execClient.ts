import type { execContract } from '../../../src-preload/contract/exec';
import type { RpcClient } from '../../../src-preload/rpc/rpcClient';
import type { OmniClient } from '../../bridge/connectionStore';

export type ExecClient = RpcClient<typeof execContract>;

/**
 * The client, typed for the exec calls and streams. Until the contract map (src-preload/contract/index.ts) includes
 * execContract these names are not in OmniClient's type; a host without them answers UNKNOWN_METHOD / UNKNOWN_STREAM,
 * which the Runs panel shows.
 */
export function execClient(client: OmniClient): ExecClient {
  return client as unknown as ExecClient;
}
