import type { AreaComposition } from '../../base/areaComposition';
import type { Ledger } from '../../ledger/ledger';
import { createNativeSandbox, type NativeSandbox } from './nativeSandbox';

/** The native sandbox agents' process runs go through (bwrap); every network request it decides is ledgered. */
export function composeNativeSandbox({ home, ledger }: { home: string; ledger: Ledger }): AreaComposition<NativeSandbox> {
  const sandbox = createNativeSandbox({
    appHome: home,
    onNetworkRequest: (event) =>
      ledger.append({ type: 'exec.net_request', actor: 'host', payload: { runId: event.label ?? null, host: event.host, port: event.port, method: event.method, allowed: event.allowed, reason: event.reason } }),
  });
  return { service: sandbox, handlers: {}, dispose: () => sandbox.dispose() };
}
