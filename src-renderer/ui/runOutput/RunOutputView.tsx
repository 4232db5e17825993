import { useRef, useState } from 'react';
import { useRunScreen } from './useRunScreen';

/**
 * A process run's output on a read-only screen, replayed from the start and then live until the run ends: what a
 * card shows of a run it does not own (an ACP agent's terminal in its tool call). The Runs panel has the full card,
 * with Kill and the run's events.
 */
export function RunOutputView({ runId, pty, label }: { runId: string; pty: boolean; label: string }) {
  const screenRef = useRef<HTMLDivElement>(null);
  const [ended, setEnded] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  useRunScreen(runId, pty, screenRef, { onNotice: () => undefined, onComplete: () => setEnded(true), onProblem: setProblem, onFindRequested: () => undefined }, () => setEnded(false));

  return (
    <div className="run-output" data-testid="run-output" data-run-id={runId} data-ended={ended ? 'true' : 'false'}>
      <div className="run-output-screen" ref={screenRef} role="log" aria-label={label} />
      {problem && (
        <small className="error" role="alert">
          {problem}
        </small>
      )}
    </div>
  );
}
