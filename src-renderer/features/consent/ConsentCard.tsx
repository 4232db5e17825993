import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { ConsentAnswer, ConsentPrompt } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';
import { useSessions } from '../../ui/sessionsStore';
import { useNow } from '../../ui/useNow';
import { ConsentWhat } from './ConsentWhat';
import { focusAfterCard, focusNewCard } from './consentFocus';
import { autoDenyText } from './consentWords';
import { defaultMinutes, formatRemaining, formatSeconds } from './durations';

/** The answer a key gives on the focused card: A allows once, D denies; with Alt they work from the minutes field too. */
function answerForKey(event: KeyboardEvent): 'allow_once' | 'deny' | null {
  if (event.ctrlKey || event.metaKey || event.shiftKey) return null;
  const inField = event.target instanceof HTMLInputElement;
  if (inField && !event.altKey) return null;
  const key = event.code === 'KeyA' || event.key.toLowerCase() === 'a' ? 'a' : event.code === 'KeyD' || event.key.toLowerCase() === 'd' ? 'd' : null;
  if (key === 'a') return 'allow_once';
  if (key === 'd') return 'deny';
  return null;
}

/**
 * An agent asks for a capability: which agent, what, on what, why, for how long, and (for a sensitive action)
 * exactly what would be done, in plain words (ConsentWhat). Allow once / Allow for N minutes / Deny, also by key
 * (A, D) on the focused card; a new card takes focus and gives it back once answered (consentFocus.ts). The card
 * goes when the host says the prompt is settled (answered here, timed out, or withdrawn). For a connection
 * (`oauth:*`), "once" means for the agent's current run, so the button says "Allow for this run".
 */
export function ConsentCard({ prompt }: { prompt: ConsentPrompt }) {
  const client = useConnection((s) => s.client);
  const workspace = useSessions((s) => s.sessions.find((x) => x.id === prompt.sessionId)?.workspace ?? null);
  const titleId = useId();
  const minutesId = useId();
  const card = useRef<HTMLElement>(null);
  const [minutes, setMinutes] = useState(() => defaultMinutes(prompt.durationS));
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // No deadline (the host may keep a prompt until someone answers): no countdown.
  const deadline = (prompt.deadline as number | null | undefined) ?? null;
  const now = useNow(deadline !== null);
  const minutesValid = Number.isInteger(minutes) && minutes >= 1 && minutes <= 24 * 60;

  useEffect(() => {
    if (card.current) focusNewCard(card.current);
    return () => focusAfterCard();
  }, []);

  async function answer(value: ConsentAnswer): Promise<void> {
    if (!client || sent) return;
    setSent(true);
    setError(null);
    try {
      await client.call('consent.answer', { promptId: prompt.id, answer: value });
    } catch (e) {
      setSent(false);
      setError(errorMessage(e));
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLElement>): void {
    const kind = answerForKey(event);
    if (!kind || disabled) return;
    event.preventDefault();
    void answer({ kind });
  }

  const disabled = !client || sent;
  const forOneRun = prompt.capability.startsWith('oauth:');
  const countdown = autoDenyText(deadline, now, formatRemaining);
  return (
    <article
      ref={card}
      className={`card consent-card${prompt.sensitive ? ' consent-sensitive' : ''}`}
      role="alertdialog"
      aria-labelledby={titleId}
      aria-keyshortcuts="A D Alt+A Alt+D"
      tabIndex={-1}
      onKeyDown={onKeyDown}
      data-testid="consent-card"
      data-prompt-id={prompt.id}
      data-capability={prompt.capability}
    >
      <header className="card-header consent-header">
        <span className="card-title" id={titleId}>
          <strong data-testid="consent-agent">{prompt.agentId}</strong> asks for <code data-testid="consent-capability">{prompt.capability}</code>
          {prompt.sensitive && <span className="badge consent-sensitive-badge">sensitive action</span>}
        </span>
        {countdown && (
          <span className="muted consent-countdown" data-testid="consent-countdown" title="Unanswered, the prompt is denied when this runs out">
            {countdown}
          </span>
        )}
      </header>
      <ConsentWhat prompt={prompt} workspace={workspace} />
      <dl className="consent-fields">
        <dt>Reason</dt>
        <dd data-testid="consent-reason">“{prompt.reason}”</dd>
        <dt>Asked for</dt>
        <dd data-testid="consent-asked-for">{formatSeconds(prompt.durationS)}</dd>
      </dl>
      <div className="consent-buttons">
        <button
          type="button"
          data-testid="consent-allow-once"
          aria-keyshortcuts="A"
          title={forOneRun ? 'Every request of this run of the agent; its next run asks again (key: A)' : 'Key: A'}
          disabled={disabled}
          onClick={() => void answer({ kind: 'allow_once' })}
        >
          {forOneRun ? 'Allow for this run' : 'Allow once'} <kbd aria-hidden="true">A</kbd>
        </button>
        <span className="consent-allow-for">
          <button type="button" data-testid="consent-allow-for" disabled={disabled || !minutesValid} onClick={() => void answer({ kind: 'allow_for', minutes })}>
            Allow for {minutesValid ? minutes : 'N'} minutes
          </button>
          <label htmlFor={minutesId} className="consent-minutes-label">
            Duration (minutes)
          </label>
          <input
            id={minutesId}
            type="number"
            min={1}
            max={24 * 60}
            step={1}
            data-testid="consent-minutes"
            value={Number.isNaN(minutes) ? '' : minutes}
            disabled={disabled}
            onChange={(e) => setMinutes(e.target.valueAsNumber)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && minutesValid) void answer({ kind: 'allow_for', minutes });
            }}
          />
        </span>
        <button type="button" className="secondary" data-testid="consent-deny" aria-keyshortcuts="D" title="Key: D" disabled={disabled} onClick={() => void answer({ kind: 'deny' })}>
          Deny <kbd aria-hidden="true">D</kbd>
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
