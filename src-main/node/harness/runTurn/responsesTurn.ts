import { readFileSync, statSync } from 'node:fs';
import { HarnessError } from '../harnessError';
import type { HarnessContinuationRef, RunResult } from '../types';
import { readServerSentEvents } from '../../base/serverSentEvents';
import { cancelledResult, errorMessage, failedBy, failedResult as failed, type TurnInput, type TurnOutcome } from './turnInput';

/** The model a pi-sdk turn uses when the request names none (the Responses API requires one). */
export const DEFAULT_OPENAI_MODEL = 'gpt-5';
/** Larger attachments are refused: they go into the request body whole. */
const ATTACHMENT_LIMIT = 1024 * 1024;
/** OpenAI response ids look like resp_0123abcd…; anything with spaces, slashes or quotes is not one. */
const RESPONSE_ID = /^[A-Za-z0-9_-]{1,200}$/;

type StreamEvent = { type?: unknown; response?: { id?: unknown; model?: unknown; error?: unknown; incomplete_details?: unknown; output?: unknown }; delta?: unknown; code?: unknown; message?: unknown };

/**
 * The pi-sdk harness: one turn against the OpenAI Responses API (POST {baseUrl}/responses, streamed as SSE),
 * written here instead of loading a coding-agent package (docs/harness.md says why). The continuation key is the
 * id of the turn's response: the next turn sends it as `previous_response_id`, and the provider (which stores the
 * response, `store: true`) puts the earlier conversation in front of the new input. So the key changes every turn;
 * the response returns the new one when the turn completed, and keeps the old one when it did not.
 */
export async function runResponsesTurn(input: TurnInput): Promise<TurnOutcome> {
  const { request, endpoint, events, signal } = input;
  const previous = request.continuation?.key;
  if (previous !== undefined && !RESPONSE_ID.test(previous)) {
    throw new HarnessError(
      'HARNESS_BAD_CONTINUATION_KEY',
      `continuation key ${JSON.stringify(previous)} is not an OpenAI response id (like resp_0123abcd); use the key a previous pi-sdk turn returned, or start a new conversation without a key`,
    );
  }
  const model = request.model ?? DEFAULT_OPENAI_MODEL;
  const body = {
    model,
    input: [{ role: 'user', content: [{ type: 'input_text', text: request.prompt }, ...input.attachments.map(attachmentBlock)] }],
    ...(request.spec.instructions ? { instructions: request.spec.instructions } : {}),
    ...(previous !== undefined ? { previous_response_id: previous } : {}),
    store: true,
    stream: true,
  };
  const kept: HarnessContinuationRef | undefined = previous !== undefined ? { provider: 'openai', key: previous } : undefined;
  let finalText = '';
  const end = (result: RunResult, continuation = kept): TurnOutcome => ({ result, ...(continuation ? { continuation } : {}), model });

  let response: Response;
  try {
    response = await fetch(`${endpoint.baseUrl}/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${endpoint.apiKey}`, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (signal.aborted) return end(cancelledResult(''));
    return end(failed('HARNESS_PROVIDER_UNREACHABLE', `could not reach ${endpoint.baseUrl}/responses: ${causeOf(error)}`, ''));
  }
  if (!response.ok || response.body === null) return end(await httpFailure(response, previous));

  let newKey: string | undefined;
  try {
    for await (const sse of readServerSentEvents(response.body)) {
      if (sse.data === '[DONE]') break;
      let event: StreamEvent;
      try {
        event = JSON.parse(sse.data) as StreamEvent;
      } catch {
        continue; // not JSON: nothing the Responses API sends; ignored rather than ending the turn
      }
      const id = event.response?.id;
      if (typeof id === 'string' && newKey === undefined) {
        newKey = id;
        events.observe({ provider: 'openai', key: id });
      }
      if (event.type === 'response.output_text.delta' && typeof event.delta === 'string') finalText += event.delta;
      events.emit(event);
      if (event.type === 'response.completed') {
        return end({ status: 'completed', finalText: finalText || outputText(event.response?.output) }, events.continuation);
      }
      if (event.type === 'response.incomplete') {
        const reason = JSON.stringify(event.response?.incomplete_details ?? null);
        return end(failed('OPENAI_RESPONSE_INCOMPLETE', `the model stopped before finishing (${reason}); the partial answer is in finalText`, finalText), events.continuation);
      }
      if (event.type === 'response.failed') return end(failed(...providerError(event.response?.error, 'OPENAI_RESPONSE_FAILED'), finalText));
      if (event.type === 'error') return end(failed(...providerError(event, 'OPENAI_STREAM_ERROR'), finalText));
    }
  } catch (error) {
    if (signal.aborted) return end(cancelledResult(finalText));
    return end(failedBy(error, 'HARNESS_STREAM_BROKEN', `the response stream from ${endpoint.baseUrl} broke off: ${causeOf(error)}`, finalText));
  }
  if (signal.aborted) return end(cancelledResult(finalText));
  return end(failed('HARNESS_STREAM_ENDED', 'the response stream ended without response.completed; the answer may be cut off', finalText));
}

function attachmentBlock(file: string): { type: 'input_text'; text: string } {
  const size = statSync(file).size;
  if (size > ATTACHMENT_LIMIT) {
    throw new HarnessError('HARNESS_BAD_REQUEST', `attachment ${file} is ${size} bytes; a pi-sdk turn sends attachments whole, up to ${ATTACHMENT_LIMIT} bytes`);
  }
  return { type: 'input_text', text: `Attached file ${file}:\n${readFileSync(file, 'utf8')}` };
}

/** The text of a completed response's output ([{type: 'message', content: [{type: 'output_text', text}]}]). */
function outputText(output: unknown): string {
  if (!Array.isArray(output)) return '';
  return output
    .flatMap((item: { content?: unknown }) => (Array.isArray(item?.content) ? (item.content as { type?: unknown; text?: unknown }[]) : []))
    .filter((part) => part.type === 'output_text' && typeof part.text === 'string')
    .map((part) => part.text as string)
    .join('');
}

function providerError(error: unknown, fallback: string): [string, string] {
  const fields = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; message?: unknown };
  const code = typeof fields.code === 'string' && fields.code !== '' ? `OPENAI_${fields.code.toUpperCase()}` : fallback;
  return [code, typeof fields.message === 'string' ? fields.message : `the provider reported an error: ${JSON.stringify(error)}`];
}

/** A refused request: the provider's own error text, plus what it means for a continuation that is not found. */
async function httpFailure(response: Response, previous: string | undefined): Promise<RunResult> {
  const text = await response.text().catch(() => '');
  let detail: { code?: unknown; message?: unknown; param?: unknown } | undefined;
  try {
    detail = (JSON.parse(text) as { error?: typeof detail }).error;
  } catch {
    detail = undefined;
  }
  const message = typeof detail?.message === 'string' ? detail.message : text.slice(0, 500) || response.statusText;
  const code = typeof detail?.code === 'string' && detail.code !== '' ? `OPENAI_${detail.code.toUpperCase()}` : `OPENAI_HTTP_${response.status}`;
  const hint =
    previous !== undefined && (detail?.code === 'previous_response_not_found' || detail?.param === 'previous_response_id')
      ? ` (the provider no longer has response ${previous}: this conversation cannot be continued; start a new one)`
      : '';
  return failed(code, `the OpenAI endpoint answered ${response.status}: ${message}${hint}`, '');
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  return cause !== undefined ? `${errorMessage(error)} (${errorMessage(cause)})` : errorMessage(error);
}
