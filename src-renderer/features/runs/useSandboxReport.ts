import { useEffect, useState } from 'react';
import type { SandboxReport } from '../../../src-preload/contract';
import { useConnection, type OmniClient } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';

/** One probe per connection, shared by every session's Runs panel (the machine is the same for all of them). */
const reports = new WeakMap<OmniClient, Promise<SandboxReport>>();

function reportFor(client: OmniClient): Promise<SandboxReport> {
  let report = reports.get(client);
  if (!report) {
    report = client.call('exec.sandbox', {});
    reports.set(client, report);
  }
  return report;
}

export type SandboxReportState = { kind: 'loading' } | { kind: 'ready'; report: SandboxReport } | { kind: 'failed'; message: string };

/** What the native sandbox enforces on this machine, as the host probed it. */
export function useSandboxReport(): SandboxReportState {
  const client = useConnection((s) => s.client);
  const [state, setState] = useState<SandboxReportState>({ kind: 'loading' });
  useEffect(() => {
    if (!client) return;
    let cancelled = false;
    reportFor(client).then(
      (report) => !cancelled && setState({ kind: 'ready', report }),
      (error: unknown) => !cancelled && !client.isClosed && setState({ kind: 'failed', message: errorMessage(error) }),
    );
    return () => {
      cancelled = true;
    };
  }, [client]);
  return state;
}
