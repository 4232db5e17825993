import { useEffect, useState } from 'react';
import type { HarnessOutput } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';

/** Items kept on screen: a long headless run shows its most recent output. */
const SHOWN = 500;

/**
 * A headless run's output card: the model's text as paragraphs, other events (tool calls, the thread starting, the
 * result) as one-line notes, stderr as log lines, and how the run ended. Replays what the host kept, then follows.
 */
export function HarnessOutputCard({ harnessId, launchedAt }: { harnessId: string; launchedAt: number | null }) {
  const client = useConnection((s) => s.client);
  const [items, setItems] = useState<HarnessOutput[]>([]);
  useEffect(() => {
    if (!client) return;
    setItems([]);
    const subscription = client.subscribe('harness.output', { id: harnessId }, { onItem: (item) => setItems((current) => [...current, item].slice(-SHOWN)) });
    return () => subscription.dispose();
  }, [client, harnessId, launchedAt]);
  if (items.length === 0) return null;
  return (
    <div className="harness-output" data-testid="harness-output" aria-label="Headless output">
      {items.map((item, index) =>
        item.type === 'text' ? (
          <p key={index} className="harness-text" data-testid="harness-text">
            {item.text}
          </p>
        ) : item.type === 'event' ? (
          <small key={index} className={`harness-event muted${item.kind === 'error' ? ' item-error' : ''}`}>
            {item.kind}: {item.summary}
          </small>
        ) : item.type === 'log' ? (
          <pre key={index} className="harness-log">
            {item.text}
          </pre>
        ) : (
          <small key={index} className="harness-event muted">
            exited {item.signal ? `by ${item.signal}` : `with code ${item.exitCode ?? '?'}`}
          </small>
        ),
      )}
    </div>
  );
}
