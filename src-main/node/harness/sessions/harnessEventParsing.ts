import type { HarnessCliFrontend, HarnessOutput } from '../../../../src-preload/contract/harness';
import { isUuid } from '..';

/** What one line of a headless CLI's JSONL stdout means to the host: output for the card, and a reported key. */
export interface ParsedHarnessLine {
  outputs: HarnessOutput[];
  /** The conversation id the CLI reported on this line (a UUID), if it did. */
  reportedKey?: string;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown, limit = 300): string {
  const s = typeof value === 'string' ? value : JSON.stringify(value) ?? '';
  return s.length > limit ? `${s.slice(0, limit)}…` : s;
}

/**
 * Claude Code `-p --output-format stream-json --verbose` (2.1.330): `system/init` carries `session_id` (equal to
 * our --session-id), `assistant` messages carry text and tool_use blocks, `result` ends the turn.
 */
function parseClaudeCode(event: Json): ParsedHarnessLine {
  const reportedKey = typeof event.session_id === 'string' && isUuid(event.session_id) ? event.session_id : undefined;
  const outputs: HarnessOutput[] = [];
  if (event.type === 'system' && event.subtype === 'init') {
    outputs.push({ type: 'event', kind: 'init', summary: `session ${text(event.session_id)} in ${text(event.cwd)}${event.model ? ` (model ${text(event.model)})` : ''}` });
  } else if (event.type === 'assistant' && isObject(event.message) && Array.isArray(event.message.content)) {
    for (const block of event.message.content) {
      if (!isObject(block)) continue;
      if (block.type === 'text' && typeof block.text === 'string') outputs.push({ type: 'text', text: block.text });
      else if (block.type === 'tool_use') outputs.push({ type: 'event', kind: 'tool_use', summary: `${text(block.name)} ${text(block.input, 200)}` });
    }
  } else if (event.type === 'result') {
    const failed = event.is_error === true || (typeof event.subtype === 'string' && event.subtype !== 'success');
    outputs.push({ type: 'event', kind: failed ? 'error' : 'result', summary: failed ? text(event.result ?? event.subtype) : `done (${text(event.num_turns ?? '?')} turn(s))` });
  } else if (event.type !== 'user' && event.type !== 'stream_event') {
    outputs.push({ type: 'event', kind: text(event.type, 40), summary: text(event.subtype ?? '', 120) });
  }
  return { outputs, ...(reportedKey ? { reportedKey } : {}) };
}

/**
 * Codex `exec --json` (0.169.0): `thread.started` carries `thread_id` (the continuation key, a UUIDv7);
 * `item.completed` items are agent messages, reasoning, commands; `turn.completed` / `turn.failed` / `error` end it.
 */
function parseCodex(event: Json): ParsedHarnessLine {
  if (event.type === 'thread.started') {
    const key = typeof event.thread_id === 'string' && isUuid(event.thread_id) ? event.thread_id : undefined;
    return { outputs: [{ type: 'event', kind: 'thread.started', summary: `thread ${text(event.thread_id)}` }], ...(key ? { reportedKey: key } : {}) };
  }
  if ((event.type === 'item.completed' || event.type === 'item.started') && isObject(event.item)) {
    const item = event.item;
    if (event.type === 'item.completed' && item.type === 'agent_message' && typeof item.text === 'string') return { outputs: [{ type: 'text', text: item.text }] };
    if (item.type === 'command_execution') return { outputs: [{ type: 'event', kind: 'command', summary: `${text(item.command)}${item.exit_code !== undefined ? ` → ${text(item.exit_code)}` : ''}` }] };
    if (event.type === 'item.completed') return { outputs: [{ type: 'event', kind: text(item.type, 40), summary: text(item.text ?? '', 200) }] };
    return { outputs: [] };
  }
  if (event.type === 'turn.failed' || event.type === 'error') {
    const error = isObject(event.error) ? event.error.message : event.message;
    return { outputs: [{ type: 'event', kind: 'error', summary: text(error) }] };
  }
  if (event.type === 'turn.completed') return { outputs: [{ type: 'event', kind: 'result', summary: 'turn completed' }] };
  return { outputs: [] };
}

/** One stdout line of a headless run; a line that is not a JSON object is shown as it is. */
export function parseHarnessLine(frontend: HarnessCliFrontend, line: string): ParsedHarnessLine {
  if (line.trim() === '') return { outputs: [] };
  let event: unknown;
  try {
    event = JSON.parse(line);
  } catch {
    return { outputs: [{ type: 'log', text: line }] };
  }
  if (!isObject(event)) return { outputs: [{ type: 'log', text: line }] };
  return frontend === 'claude-code' ? parseClaudeCode(event) : parseCodex(event);
}
