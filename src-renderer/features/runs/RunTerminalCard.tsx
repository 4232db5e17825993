import { useEffect, useRef, useState } from 'react';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';
import { useNow } from '../../ui/useNow';
import { TerminalSearch } from '../../ui/screen/TerminalSearch';
import { formatBytes } from '../../ui/formatBytes';
import { actorLabel, commandLine, durationText, isLive, wasRecovered } from './runFormat';
import type { RunNotice } from '../../ui/runOutput/runItemView';
import { killRun } from './runActions';
import { useRunScreen } from '../../ui/runOutput/useRunScreen';
import { useRuns } from './runsStore';
import { RunStatusBadge } from './RunStatusBadge';
import { SendKeysBar } from './SendKeysBar';

/** Notices kept on a card: a watcher without `once` can fire on every line; the newest are what matter. */
const MAX_NOTICES = 200;

/**
 * A process run's terminal card: its output replayed from the start and then live, its events as notices above the
 * screen, Kill while it runs and, for a PTY run, a keys bar. Closing the card only stops showing the run; reopening it
 * replays everything again.
 */
export function RunTerminalCard({ sessionId, runId }: { sessionId: string; runId: string }) {
  const client = useConnection((s) => s.client);
  const run = useRuns((s) => s.bySession[sessionId]?.find((r) => r.run_id === runId));
  const screenRef = useRef<HTMLDivElement>(null);
  const cardRef = useRef<HTMLElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const [notices, setNotices] = useState<{ shown: RunNotice[]; dropped: number }>({ shown: [], dropped: 0 });
  const [complete, setComplete] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [killing, setKilling] = useState(false);
  const pty = run?.pty;
  const live = run ? isLive(run.status) : true;
  const now = useNow(run?.status === 'running' || run?.status === 'queued');

  const controller = useRunScreen(
    runId,
    pty,
    screenRef,
    {
      onNotice: (notice) =>
        setNotices((current) => {
          const shown = [...current.shown, notice];
          const over = Math.max(0, shown.length - MAX_NOTICES);
          return { shown: over > 0 ? shown.slice(over) : shown, dropped: current.dropped + over };
        }),
      onComplete: () => setComplete(true),
      onProblem: setProblem,
      onFindRequested: () => searchRef.current?.focus(),
    },
    () => {
      setNotices({ shown: [], dropped: 0 });
      setComplete(false);
    },
  );

  const revealRequested = useRuns((s) => s.revealRequest === runId);
  useEffect(() => {
    if (!revealRequested) return;
    cardRef.current?.scrollIntoView?.({ block: 'nearest' });
    useRuns.getState().requestReveal(null);
  }, [revealRequested]);

  async function kill(): Promise<void> {
    if (!client) return;
    setKilling(true);
    setError(null);
    try {
      await killRun(client, runId);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setKilling(false);
    }
  }

  const command = run ? commandLine(run.argv) : runId;
  const label = `run ${command}`;
  const facts = run
    ? [
        durationText(run, now),
        `${formatBytes(run.output_bytes)}${run.truncated ? ' (truncated)' : ''}`,
        actorLabel(run.actor),
        run.pty ? 'PTY' : null,
        wasRecovered(run) ? `recovered, attempt ${run.attempt}` : null,
      ].filter((fact) => fact !== null)
    : [];
  return (
    <article
      ref={cardRef}
      className="card terminal-card exec-run-card"
      data-testid="exec-run-card"
      data-run-id={runId}
      data-complete={complete ? 'true' : undefined}
      aria-label={`Output of ${label}`}
    >
      <header className="card-header">
        <span className="card-title" title={run ? `${command}\nin ${run.cwd}` : undefined}>
          <code className="exec-command">{command}</code> {run && <span className="muted">{run.cwd}</span>}
        </span>
        {run ? <RunStatusBadge run={run} /> : <span className="badge">loading…</span>}
        {facts.length > 0 && <span className="muted exec-card-facts">{facts.join(' · ')}</span>}
        <span className="card-tools">
          <TerminalSearch inputRef={searchRef} controller={controller} label={label} />
          {live && (
            <button type="button" className="icon-button exec-kill" data-testid="exec-run-kill" disabled={!client || killing} aria-busy={killing} title="Stop the run and its whole process tree" onClick={() => void kill()}>
              Kill
            </button>
          )}
          <button
            type="button"
            className="icon-button"
            data-testid="exec-run-card-close"
            aria-label={`Close the card of ${label}`}
            title="Close the card (the run goes on; reopen it from the Runs panel)"
            onClick={() => useRuns.getState().closeCard(sessionId, runId)}
          >
            ✕
          </button>
        </span>
      </header>
      {error && (
        <small className="item-error" role="alert" data-testid="exec-run-card-error">
          {error}
        </small>
      )}
      {problem && (
        <small className="item-error" role="alert" data-testid="exec-run-card-problem">
          Cannot show this run’s output: {problem}
        </small>
      )}
      {(notices.shown.length > 0 || notices.dropped > 0) && (
        <ol className="exec-notices" aria-label="Events of this run" data-testid="exec-run-notices">
          {notices.dropped > 0 && <li className="muted">{notices.dropped} earlier events not shown</li>}
          {notices.shown.map((notice) => (
            <li key={notice.seq} className={`exec-notice exec-notice-${notice.tone}`} data-testid="exec-run-notice" data-event={notice.event}>
              <time className="muted" dateTime={new Date(notice.ts).toISOString()}>
                {new Date(notice.ts).toLocaleTimeString()}
              </time>{' '}
              {notice.tone === 'watcher' && <span className="badge">{notice.event}</span>} {notice.text}
            </li>
          ))}
        </ol>
      )}
      <div className="terminal-screen exec-run-screen" ref={screenRef} />
      {run?.pty && run.status === 'running' && <SendKeysBar runId={runId} label={label} />}
    </article>
  );
}
