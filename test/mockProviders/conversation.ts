// The conversation a request carries, read the same way for every API: a list of {role, text} turns. Tests use
// it to check that a resumed CLI sent the earlier prompt and answer; scripts use lastUserText to pick a reply.
import type { RecordedRequest } from './requestRecorder';

export interface ConversationTurn {
  /** user | assistant | system | developer | tool */
  role: string;
  /** The turn's text parts joined with "\n"; tool calls as "tool_call NAME INPUT", tool results as their text. */
  text: string;
  /** The same, part by part (a CLI sends its context blocks as parts of their own). */
  parts: string[];
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Texts of a content value: a string, or an array of parts ({type:'text'|'input_text'|'output_text', text}, tool uses, tool results). */
function contentParts(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content
    .flatMap((part): string[] => {
      if (typeof part === 'string') return [part];
      if (!isObject(part)) return [];
      if (typeof part.text === 'string') return [part.text];
      if (part.type === 'tool_use') return [`tool_call ${String(part.name)} ${JSON.stringify(part.input)}`];
      if (part.type === 'tool_result') return contentParts(part.content);
      return [];
    })
    .filter(Boolean);
}

function turn(role: string, parts: string[]): ConversationTurn {
  return { role, parts, text: parts.join('\n') };
}

function anthropicTurns(body: Json): ConversationTurn[] {
  const turns: ConversationTurn[] = [];
  if (body.system !== undefined) turns.push(turn('system', contentParts(body.system)));
  for (const message of Array.isArray(body.messages) ? body.messages : []) {
    if (!isObject(message)) continue;
    const toolResultsOnly = Array.isArray(message.content) && message.content.length > 0 && message.content.every((p) => isObject(p) && p.type === 'tool_result');
    turns.push(turn(toolResultsOnly ? 'tool' : String(message.role), contentParts(message.content)));
  }
  return turns;
}

function responsesItemTurn(item: unknown): ConversationTurn | undefined {
  if (typeof item === 'string') return turn('user', [item]);
  if (!isObject(item)) return undefined;
  if (item.type === 'function_call') return turn('assistant', [`tool_call ${String(item.name)} ${String(item.arguments)}`]);
  if (item.type === 'function_call_output') return turn('tool', [typeof item.output === 'string' ? item.output : JSON.stringify(item.output)]);
  if (item.type === 'message' || item.role !== undefined) return turn(String(item.role), contentParts(item.content));
  return undefined;
}

function responsesTurns(body: Json, priorItems: unknown[]): ConversationTurn[] {
  const turns: ConversationTurn[] = [];
  if (typeof body.instructions === 'string') turns.push(turn('system', [body.instructions]));
  const input = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : Array.isArray(body.input) ? body.input : [];
  for (const item of [...priorItems, ...input]) {
    const turn = responsesItemTurn(item);
    if (turn) turns.push(turn);
  }
  return turns;
}

function chatTurns(body: Json): ConversationTurn[] {
  const turns: ConversationTurn[] = [];
  for (const message of Array.isArray(body.messages) ? body.messages : []) {
    if (!isObject(message)) continue;
    const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
    const callParts = calls.flatMap((call) => (isObject(call) && isObject(call.function) ? [`tool_call ${String(call.function.name)} ${String(call.function.arguments)}`] : []));
    turns.push(turn(String(message.role), [...contentParts(message.content), ...callParts]));
  }
  return turns;
}

/** Gemini's parts: {text}, {functionCall: {name, args}}, {functionResponse: {name, response}}. */
function geminiParts(parts: unknown): string[] {
  if (!Array.isArray(parts)) return [];
  return parts
    .flatMap((part): string[] => {
      if (!isObject(part)) return [];
      if (typeof part.text === 'string') return [part.text];
      if (isObject(part.functionCall)) return [`tool_call ${String(part.functionCall.name)} ${JSON.stringify(part.functionCall.args)}`];
      if (isObject(part.functionResponse)) return [JSON.stringify(part.functionResponse.response)];
      return [];
    })
    .filter(Boolean);
}

function geminiTurns(body: Json): ConversationTurn[] {
  const turns: ConversationTurn[] = [];
  if (isObject(body.systemInstruction)) turns.push(turn('system', geminiParts(body.systemInstruction.parts)));
  for (const content of Array.isArray(body.contents) ? body.contents : []) {
    if (!isObject(content)) continue;
    const parts = Array.isArray(content.parts) ? content.parts : [];
    const responsesOnly = parts.length > 0 && parts.every((p) => isObject(p) && isObject(p.functionResponse));
    // Gemini's roles are user and model; a user turn of function responses only is the tools' answer.
    turns.push(turn(responsesOnly ? 'tool' : content.role === 'model' ? 'assistant' : String(content.role ?? 'user'), geminiParts(parts)));
  }
  return turns;
}

/** The request's conversation, oldest first (for the Responses API including the previous_response_id chain). */
export function conversationOf(request: RecordedRequest): ConversationTurn[] {
  if (!isObject(request.body)) return [];
  if (request.api === 'anthropic') return anthropicTurns(request.body);
  if (request.api === 'openai') return responsesTurns(request.body, request.priorItems);
  if (request.api === 'gemini') return geminiTurns(request.body);
  return chatTurns(request.body);
}

const CONTEXT_BLOCK = /^\s*(<(system-reminder|environment_context|user_instructions|INSTRUCTIONS|session_context)|# AGENTS\.md instructions)/;

/**
 * The user's last words: the last user turn's text, leaving out the context blocks CLIs add as user text
 * (Claude Code's <system-reminder>, Codex's <environment_context> and AGENTS.md instructions, Gemini CLI's
 * <session_context>).
 */
export function lastUserText(request: RecordedRequest): string | undefined {
  const users = conversationOf(request).filter((turn) => turn.role === 'user');
  for (let i = users.length - 1; i >= 0; i--) {
    const text = users[i].parts
      .filter((part) => !CONTEXT_BLOCK.test(part))
      .join('\n')
      .trim();
    if (text) return text;
  }
  return undefined;
}
