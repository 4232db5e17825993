import type { DeniedCall } from '../../../src-preload/contract';

const time = (at: number): string => new Date(at).toLocaleTimeString();

/** The capability uses a run was refused: what it asked for, when, and why it was refused. */
export function DeniedCalls({ calls }: { calls: readonly DeniedCall[] }) {
  return (
    <section className="run-denied" data-testid="run-denied" aria-label="Denied calls">
      <strong>
        {calls.length === 1 ? '1 call was denied' : `${calls.length} calls were denied`}
      </strong>
      <ul>
        {calls.map((call, i) => (
          <li key={i} data-testid="run-denied-call" data-capability={call.capability}>
            <code>{call.capability}</code>
            {call.target && (
              <>
                {' '}
                on <code>{call.target}</code>
              </>
            )}{' '}
            at <time dateTime={new Date(call.at).toISOString()}>{time(call.at)}</time>: <span>{call.reason}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
