import { useState } from 'react';
import type { DeviceFlowStarted, FlowEvent, PkceFlowStarted } from '../../../src-preload/contract';
import { countdown } from './relativeTime';

export type RunningFlow = { kind: 'device'; started: DeviceFlowStarted } | { kind: 'pkce'; started: PkceFlowStarted };

interface Props {
  flow: RunningFlow;
  providerName: string;
  /** The newest progress event of this flow, if any came yet. */
  event: FlowEvent | undefined;
  now: number;
  onCancel(): void;
  onClose(): void;
}

const FAILURES: Record<string, string> = {
  access_denied: 'Sign-in was denied at the provider. Start again if that was a mistake.',
  expired_token: 'The code expired before it was approved. Start again for a new code.',
  cancelled: 'Cancelled.',
};

function statusText(event: FlowEvent | undefined, flow: RunningFlow, expired: boolean): { text: string; done: boolean; failed: boolean } {
  if (event?.kind === 'connected') return { text: 'Connected.', done: true, failed: false };
  if (event?.kind === 'failed') return { text: FAILURES[event.reason] ?? `Connecting failed: ${event.message}`, done: true, failed: true };
  if (event?.kind === 'cancelled') return { text: 'Cancelled.', done: true, failed: false };
  if (expired) return { text: FAILURES.expired_token, done: false, failed: true };
  if (event?.kind === 'slow_down') return { text: `The provider asked to slow down: checking every ${event.intervalS} s.`, done: false, failed: false };
  return flow.kind === 'device'
    ? { text: 'Waiting for you to enter the code and approve…', done: false, failed: false }
    : { text: 'Waiting for the sign-in to finish in the browser…', done: false, failed: false };
}

/**
 * A running connect flow. Device flow: the code, big, with a copy button, the verification link and a live countdown.
 * Browser flow: the sign-in link. The host does not open a browser itself (it may run headless, elsewhere than the
 * user): the link opens in a new tab, or in Electron in the system browser; the host's loopback listener gets the answer.
 */
export function FlowPanel({ flow, providerName, event, now, onCancel, onClose }: Props) {
  const [copied, setCopied] = useState<string | null>(null);
  const expired = now >= flow.started.expiresAt;
  const status = statusText(event, flow, expired);

  function copy(code: string): void {
    navigator.clipboard
      .writeText(code)
      .then(() => setCopied('Copied.'))
      .catch(() => setCopied('Copying failed: select the code and copy it by hand.'));
  }

  return (
    <section className="flow-panel" aria-label={`Connecting ${providerName}`} data-testid="flow-panel" data-flow-kind={flow.kind} data-flow-state={status.done ? (status.failed ? 'failed' : 'done') : 'waiting'}>
      {flow.kind === 'device' && (
        <>
          <p>
            Open{' '}
            <a href={flow.started.verificationUriComplete ?? flow.started.verificationUri} target="_blank" rel="noopener noreferrer" data-testid="flow-verification-link">
              {flow.started.verificationUri}
            </a>{' '}
            and enter this code:
          </p>
          <div className="user-code-line">
            <output className="user-code" data-testid="flow-user-code" aria-label="Your code">
              {flow.started.userCode}
            </output>
            <button type="button" className="secondary" onClick={() => copy(flow.started.userCode)} aria-label="Copy the code">
              Copy
            </button>
            {copied && <span role="status">{copied}</span>}
          </div>
        </>
      )}
      {flow.kind === 'pkce' && (
        <p>
          <a href={flow.started.authorizeUrl} target="_blank" rel="noopener noreferrer" data-testid="flow-authorize-link" role="button">
            Open the sign-in page
          </a>{' '}
          <small className="muted">The answer comes back to this app at {flow.started.redirectUri}.</small>
        </p>
      )}
      {!status.done && !expired && (
        <p className="muted" data-testid="flow-countdown">
          Expires in {countdown(flow.started.expiresAt, now)}
        </p>
      )}
      <p role={status.failed ? 'alert' : 'status'} className={status.failed ? 'item-error' : undefined} data-testid="flow-status">
        {status.text}
      </p>
      {status.done || expired ? (
        <button type="button" className="secondary" onClick={onClose}>
          Close
        </button>
      ) : (
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      )}
    </section>
  );
}
