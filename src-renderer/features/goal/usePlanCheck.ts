import { useEffect, useState } from 'react';
import type { PlanCheck } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';

/** A pause in typing this long before the plan is checked again. */
const CHECK_PAUSE_MS = 400;

export type PlanCheckState = { kind: 'idle' } | { kind: 'checking' } | { kind: 'checked'; check: PlanCheck; text: string } | { kind: 'failed'; message: string };

/**
 * context.md's plan, checked by the host as the user types (goal.checkPlan: the same parser and task-graph checks Run
 * applies, so the editor never disagrees with Run). A newer text replaces an older answer; an answer for text that
 * has since changed is dropped, so a fixed mistake never stays on screen.
 */
export function usePlanCheck(text: string, enabled: boolean): PlanCheckState {
  const client = useConnection((s) => s.client);
  const [state, setState] = useState<PlanCheckState>({ kind: 'idle' });

  useEffect(() => {
    if (!client || !enabled) return;
    let current = true;
    const timer = setTimeout(() => {
      setState((previous) => (previous.kind === 'checked' ? previous : { kind: 'checking' }));
      client.call('goal.checkPlan', { text }).then(
        (check) => current && setState({ kind: 'checked', check, text }),
        (error: unknown) => current && setState({ kind: 'failed', message: errorMessage(error) }),
      );
    }, CHECK_PAUSE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [client, text, enabled]);

  return state;
}
