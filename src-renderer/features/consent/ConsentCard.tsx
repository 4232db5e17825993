import { useId, useState } from 'react';
import type { ConsentAnswer, ConsentPrompt } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';
import { defaultMinutes, formatRemaining, formatSeconds } from './durations';
import { useNow } from '../../ui/useNow';

/**
 * An agent asks for a capability: which agent, what, on what, why, for how long, and (for a sensitive action)
 * exactly what would be done. Allow once / Allow for N minutes / Deny; the card goes when the host says the
 * prompt is settled (answered here, timed out, or withdrawn). For a connection (`oauth:*`), "once" means for the
 * agent's current run (its handle lives as long as the run, whatever number of requests it makes), so the button
 * says so: "Allow for this run".
 */
export function ConsentCard({ prompt }: { prompt: ConsentPrompt }) {
  const client = useConnection((s) => s.client);
  const titleId = useId();
  const [minutes, setMinutes] = useState(() => defaultMinutes(prompt.durationS));
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const now = useNow(true);
  const minutesValid = Number.isInteger(minutes) && minutes >= 1 && minutes <= 24 * 60;

  async function answer(value: ConsentAnswer): Promise<void> {
    if (!client) return;
    setSent(true);
    setError(null);
    try {
      await client.call('consent.answer', { promptId: prompt.id, answer: value });
    } catch (e) {
      setSent(false);
      setError(errorMessage(e));
    }
  }

  const disabled = !client || sent;
  const forOneRun = prompt.capability.startsWith('oauth:');
  return (
    <article
      className={`card consent-card${prompt.sensitive ? ' consent-sensitive' : ''}`}
      role="alertdialog"
      aria-labelledby={titleId}
      data-testid="consent-card"
      data-prompt-id={prompt.id}
      data-capability={prompt.capability}
    >
      <header className="card-header consent-header">
        <span className="card-title" id={titleId}>
          <strong data-testid="consent-agent">{prompt.agentId}</strong> asks for <code data-testid="consent-capability">{prompt.capability}</code>
          {prompt.sensitive && <span className="badge consent-sensitive-badge">sensitive action</span>}
        </span>
        <span className="muted" title="Unanswered, it is denied when this runs out">
          denied in {formatRemaining(prompt.deadline - now)}
        </span>
      </header>
      <dl className="consent-fields">
        {prompt.target && (
          <>
            <dt>Target</dt>
            <dd>
              <code data-testid="consent-target">{prompt.target}</code>
            </dd>
          </>
        )}
        <dt>Allow covers</dt>
        <dd>
          {prompt.sensitive && prompt.action ? (
            <span data-testid="consent-scope">only the exact action below</span>
          ) : (
            <code data-testid="consent-scope">{prompt.scope ?? 'the capability, without a narrower scope'}</code>
          )}
        </dd>
        {prompt.action && (
          <>
            <dt>Exact action</dt>
            <dd>
              <pre className="consent-action" data-testid="consent-action">
                {prompt.action}
              </pre>
            </dd>
          </>
        )}
        <dt>Reason</dt>
        <dd data-testid="consent-reason">“{prompt.reason}”</dd>
        <dt>Asked for</dt>
        <dd>{formatSeconds(prompt.durationS)}</dd>
      </dl>
      <div className="consent-buttons">
        <button
          type="button"
          data-testid="consent-allow-once"
          title={forOneRun ? 'Every request of this run of the agent; its next run asks again' : undefined}
          disabled={disabled}
          onClick={() => void answer({ kind: 'allow_once' })}
        >
          {forOneRun ? 'Allow for this run' : 'Allow once'}
        </button>
        <span className="consent-allow-for">
          <button
            type="button"
            data-testid="consent-allow-for"
            disabled={disabled || !minutesValid}
            onClick={() => void answer({ kind: 'allow_for', minutes })}
          >
            Allow for {minutesValid ? minutes : 'N'} minutes
          </button>
          <input
            type="number"
            min={1}
            max={24 * 60}
            step={1}
            aria-label="Minutes to allow for"
            data-testid="consent-minutes"
            value={Number.isNaN(minutes) ? '' : minutes}
            disabled={disabled}
            onChange={(e) => setMinutes(e.target.valueAsNumber)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && minutesValid) void answer({ kind: 'allow_for', minutes });
            }}
          />
        </span>
        <button type="button" className="secondary" data-testid="consent-deny" disabled={disabled} onClick={() => void answer({ kind: 'deny' })}>
          Deny
        </button>
      </div>
      {error && (
        <small className="item-error" role="alert">
          {error}
        </small>
      )}
    </article>
  );
}
