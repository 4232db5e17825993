import { isAbsolute, normalize } from 'node:path';
import { checkDirectory, envDelta } from '../buildProcessInvocationSpec';
import { HarnessError } from '../harnessError';
import { assertContinuationProvider, harnessKind, providerOf } from '../harnessRegistry';
import type { RunTurnNonInteractiveRequest, RunTurnNonInteractiveResponse } from '../types';
import { runAgentSdkTurn } from './agentSdkTurn';
import { runResponsesTurn } from './responsesTurn';
import type { RunTurnOptions } from './runTurnOptions';
import { resolveAttachments } from './turnAttachments';
import { resolveTurnEndpoint } from './turnEndpoint';
import { TurnEvents } from './turnEvents';
import { cancelledResult, type TurnInput, type TurnOutcome } from './turnInput';

const RUNNERS: Record<RunTurnNonInteractiveRequest['frontend'], (input: TurnInput) => Promise<TurnOutcome>> = {
  'agent-sdk': runAgentSdkTurn,
  'pi-sdk': runResponsesTurn,
};

/**
 * Spec §2.3 A: runs one turn through an SDK harness and returns how it ended plus the conversation's continuation
 * as known at the end (newly observed for a first turn). Events go to `request.callbacks.onEvent` as they arrive,
 * each carrying the continuation once it is known.
 *
 * A request that cannot run (unknown or CLI frontend, a continuation of the other provider, no endpoint, the Agent
 * SDK not installed, a bad cwd) is refused with a thrown HarnessError before any provider call. Once the turn has
 * started, what happens to it (completed, failed at the provider, cancelled through `options.signal`) is reported
 * in `result`, never thrown.
 */
export async function runTurnNonInteractive(request: RunTurnNonInteractiveRequest, options: RunTurnOptions = {}): Promise<RunTurnNonInteractiveResponse> {
  const provider = providerOf(request.frontend);
  if (harnessKind(request.frontend) !== 'sdk') {
    throw new HarnessError('HARNESS_UNSUPPORTED_MODE', `${request.frontend} is a CLI harness: build its process with buildProcessInvocationSpec, runTurnNonInteractive runs agent-sdk and pi-sdk`);
  }
  assertContinuationProvider(request.frontend, request.continuation);
  if (typeof request.prompt !== 'string' || request.prompt.trim() === '') {
    throw new HarnessError('HARNESS_PROMPT_REQUIRED', 'a non-interactive turn needs a prompt (the user message of this turn)');
  }
  if (typeof request.callbacks?.onEvent !== 'function') {
    throw new HarnessError('HARNESS_BAD_REQUEST', 'callbacks.onEvent must be a function (it receives the turn\'s events)');
  }
  if (typeof request.aspHome !== 'string' || !isAbsolute(request.aspHome)) {
    throw new HarnessError('HARNESS_CWD_NOT_ABSOLUTE', `aspHome must be an absolute path (the harness home, e.g. <app home>/harness), not ${JSON.stringify(request.aspHome)}`);
  }
  const cwd = checkDirectory('cwd', request.cwd);
  const warnings: string[] = [];
  const env = envDelta(request.env, warnings);
  const endpoint = resolveTurnEndpoint(request.frontend, options.endpoint, env);
  const attachments = resolveAttachments(cwd, request.attachments);

  // The runner stops on our own signal, which follows the caller's: a signal aborted before the call still ends
  // the turn as cancelled without reaching the provider.
  const controller = new AbortController();
  const follow = (): void => controller.abort(options.signal?.reason);
  if (options.signal?.aborted) follow();
  else options.signal?.addEventListener('abort', follow, { once: true });

  const events = new TurnEvents({ cpSessionId: request.cpSessionId, runId: request.runId }, request.callbacks, request.continuation);
  if (controller.signal.aborted) {
    return { ...(events.continuation ? { continuation: events.continuation } : {}), provider, frontend: request.frontend, result: cancelledResult('') };
  }
  try {
    const outcome = await RUNNERS[request.frontend]({
      request: { ...request, aspHome: normalize(request.aspHome) },
      options,
      cwd,
      env,
      attachments,
      endpoint,
      events,
      signal: controller.signal,
    });
    return {
      ...(outcome.continuation ? { continuation: outcome.continuation } : {}),
      provider,
      frontend: request.frontend,
      ...(outcome.model !== undefined ? { model: outcome.model } : {}),
      result: outcome.result,
    };
  } finally {
    options.signal?.removeEventListener('abort', follow);
  }
}
