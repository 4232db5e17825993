// A script from data (for processes that cannot pass a function, e.g. mockProviderMain's JSON file): a list of
// canned replies, each chosen when the last user text contains its `match` substring; the first match wins, and
// without one the echo script answers.
import { lastUserText } from './conversation';
import { echoScript, type MockReply, type MockScript } from './mockScript';

export interface CannedReply extends MockReply {
  /** Substring of the last user message; "" matches every request. */
  match: string;
}

/** Checks a parsed JSON value is a CannedReply[], with a message naming the bad entry. */
export function parseCannedReplies(value: unknown, source = 'the script'): CannedReply[] {
  if (!Array.isArray(value)) throw new TypeError(`${source} must be a JSON array of {match, text?, toolCalls?, usage?, error?}`);
  value.forEach((entry, index) => {
    const at = `${source}[${index}]`;
    if (typeof entry !== 'object' || entry === null) throw new TypeError(`${at} must be an object`);
    const reply = entry as Record<string, unknown>;
    if (typeof reply.match !== 'string') throw new TypeError(`${at}.match must be a string (a substring of the last user message)`);
    if (reply.text !== undefined && typeof reply.text !== 'string') throw new TypeError(`${at}.text must be a string`);
    if (reply.toolCalls !== undefined) {
      if (!Array.isArray(reply.toolCalls)) throw new TypeError(`${at}.toolCalls must be an array of {name, input}`);
      reply.toolCalls.forEach((call: unknown, i) => {
        const c = call as Record<string, unknown> | null;
        if (typeof c?.name !== 'string' || typeof c.input !== 'object' || c.input === null || Array.isArray(c.input)) {
          throw new TypeError(`${at}.toolCalls[${i}] must be {name: string, input: object}`);
        }
      });
    }
    if (reply.usage !== undefined) {
      const u = reply.usage as Record<string, unknown> | null;
      if (typeof u?.inputTokens !== 'number' || typeof u.outputTokens !== 'number') throw new TypeError(`${at}.usage must be {inputTokens: number, outputTokens: number}`);
    }
    if (reply.eventDelayMs !== undefined && (typeof reply.eventDelayMs !== 'number' || reply.eventDelayMs < 0)) throw new TypeError(`${at}.eventDelayMs must be a number ≥ 0`);
    if (reply.error !== undefined) {
      const e = reply.error as Record<string, unknown> | null;
      if (typeof e?.status !== 'number' || typeof e.message !== 'string' || (e.retry !== undefined && typeof e.retry !== 'boolean')) {
        throw new TypeError(`${at}.error must be {status: number, message: string, type?: string, retry?: boolean}`);
      }
    }
  });
  return value as CannedReply[];
}

export function cannedScript(replies: CannedReply[]): MockScript {
  return (request) => {
    const text = lastUserText(request) ?? '';
    const found = replies.find((reply) => text.includes(reply.match));
    if (!found) return echoScript(request);
    const { match: _match, ...reply } = found;
    return reply;
  };
}
