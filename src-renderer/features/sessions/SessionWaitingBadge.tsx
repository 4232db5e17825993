import { useShallow } from 'zustand/react/shallow';
import type { Session } from '../../../src-preload/contract';
import { useAttention, waitingIn } from '../../ui/attention/attentionStore';
import { goToWaiting } from '../../ui/attention/goToWaiting';

/**
 * How many things wait for the user in this session (consent requests, questions), as a button that goes to the
 * oldest: the session is selected and its card focused, ready for the keyboard.
 */
export function SessionWaitingBadge({ session }: { session: Session }) {
  const waiting = useAttention(useShallow((s) => waitingIn(s, session.id)));
  if (waiting.length === 0) return null;
  const oldest = waiting[0];
  const label = `${waiting.length} waiting for you in ${session.name}: go to ${oldest.kind === 'consent' ? 'the permission request' : 'the question'}`;
  return (
    <button type="button" className="session-waiting" data-testid="session-waiting" aria-label={label} title={`${label} (${oldest.summary})`} onClick={() => goToWaiting(oldest)}>
      {waiting.length}
    </button>
  );
}
