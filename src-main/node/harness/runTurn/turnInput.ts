import type { RunTurnNonInteractiveRequest, RunResult, HarnessContinuationRef } from '../types';
import type { RunTurnOptions, TurnEndpoint } from './runTurnOptions';
import { TurnCallbackError, type TurnEvents } from './turnEvents';

/** What runTurnNonInteractive hands a frontend's runner once the request is checked. */
export type TurnInput = {
  request: RunTurnNonInteractiveRequest;
  options: RunTurnOptions;
  /** Absolute, normalized, existing. */
  cwd: string;
  /** The caller's env delta minus terminal-host variables. */
  env: Record<string, string>;
  /** Absolute paths of existing files. */
  attachments: string[];
  endpoint: TurnEndpoint;
  events: TurnEvents;
  /** Aborted by the caller's signal; the runner stops its provider call on it. */
  signal: AbortSignal;
};

/** What a runner reports; the entry point adds provider and frontend. */
export type TurnOutcome = {
  result: RunResult;
  continuation?: HarnessContinuationRef;
  model?: string;
};

/** The result of a turn the caller aborted, whatever the provider call was doing at that moment. */
export function cancelledResult(finalText: string): RunResult {
  return {
    status: 'cancelled',
    ...(finalText ? { finalText } : {}),
    error: { code: 'HARNESS_TURN_CANCELLED', message: 'the turn was cancelled (its AbortSignal fired) before the model finished; the partial answer, if any, is in finalText' },
  };
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A turn that ended because something threw: the host's callback, or the provider side (code given). */
export function failedBy(error: unknown, code: string, message: string, finalText: string): RunResult {
  if (error instanceof TurnCallbackError) return failedResult('HARNESS_CALLBACK_FAILED', error.message, finalText);
  return failedResult(code, message, finalText);
}

export function failedResult(code: string, message: string, finalText: string): RunResult {
  return { status: 'failed', ...(finalText ? { finalText } : {}), error: { code, message } };
}
