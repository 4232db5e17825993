import type { AgentRunInfo } from '../../../src-preload/contract';
import type { OutcomeView } from '../../ui/outcome/outcomeView';

export type RunOutcomeView = OutcomeView;

const LIVE_WORDS: Record<string, string> = { Registered: 'Starting', Initialized: 'Starting', Active: 'Active', Suspended: 'Suspended' };

/**
 * The run's outcome from what the host says about it: its lifecycle state, its outcome, its error's code and how many
 * of its capability uses were refused (and whether the user granted it anything meanwhile).
 */
export function runOutcome(info: Pick<AgentRunInfo, 'state' | 'outcome' | 'error' | 'deniedCalls' | 'grantsGiven'>, unavailable = false): RunOutcomeView {
  if (unavailable) return { kind: 'unavailable', word: 'No longer available' };
  if (info.state !== 'Terminated' || info.outcome === 'running') return { kind: 'live', word: LIVE_WORDS[info.state] ?? info.state };
  const denied = info.deniedCalls > 0;
  switch (info.outcome) {
    case 'completed':
      if (!denied) return { kind: 'completed', word: 'Completed' };
      // Refused everything it asked for (nothing granted meanwhile): it could not do its work.
      return info.grantsGiven > 0 ? { kind: 'partly-denied', word: 'Partly denied' } : { kind: 'denied', word: 'Denied' };
    case 'failed':
      if (info.error?.code === 'capability_denied' || (denied && info.grantsGiven === 0)) return { kind: 'denied', word: 'Denied' };
      return { kind: 'failed', word: 'Failed' };
    case 'timeout':
      return { kind: 'timed-out', word: 'Timed out' };
    case 'stopped':
      return { kind: 'cancelled', word: 'Cancelled' };
    case 'cpu_budget':
      return { kind: 'limit', word: 'CPU budget used up' };
    case 'memory_limit':
      return { kind: 'limit', word: 'Out of memory' };
    case 'interrupted':
      return { kind: 'interrupted', word: 'Interrupted' };
  }
}
