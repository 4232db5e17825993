/**
 * An ACP conversation's stored entries (acp.updates) folded into what its card shows: the user's prompts, the
 * agent's reply and thoughts (consecutive chunks joined), tool calls merged by toolCallId, the plan (each plan
 * update replaces it), the slash commands, turn ends, errors and notices. An update kind this does not know becomes
 * a one-line item: an agent newer than the app is shown, never a crash.
 *
 * Applied in place and fast: a flood of chunks folds in without copying the conversation; an item that changes is
 * replaced by a new object, so a view memoised on items redraws only the changed ones.
 */
import type { AcpEntry } from '../../../src-preload/contract';
import { appendMarkdown, emptyMarkdownStream, type MarkdownStream } from '../../ui/markdown/markdownStream';

export interface ToolCallLocation {
  path: string;
  line: number | null;
}

export type ToolCallContent =
  | { type: 'diff'; path: string; oldText: string | null; newText: string }
  | { type: 'text'; text: string }
  | { type: 'terminal'; terminalId: string }
  | { type: 'other'; summary: string };

export interface ToolCall {
  id: string;
  title: string;
  kind: string;
  status: string;
  locations: ToolCallLocation[];
  content: ToolCallContent[];
}

export interface PlanEntry {
  content: string;
  status: string;
  priority: string;
}

export interface SlashCommand {
  name: string;
  description: string;
  hint: string | null;
}

export type ConversationItem =
  | { kind: 'prompt'; key: string; text: string }
  | { kind: 'message'; key: string; role: 'agent' | 'user'; markdown: MarkdownStream }
  | { kind: 'thought'; key: string; text: string }
  | { kind: 'tool'; key: string; call: ToolCall }
  | { kind: 'plan'; key: string; entries: PlanEntry[] }
  | { kind: 'turn'; key: string; stopReason: string }
  | { kind: 'error'; key: string; code: string; message: string }
  | { kind: 'notice'; key: string; text: string }
  | { kind: 'other'; key: string; label: string; summary: string };

export interface ConversationModel {
  items: ConversationItem[];
  /** Index in `items` of each tool call, by its toolCallId. */
  toolIndex: Map<string, number>;
  /** Index in `items` of the plan, once the agent sent one. */
  planIndex: number | null;
  commands: SlashCommand[];
  /** The newest entry folded in: a new subscription asks for what came after it. */
  lastSeq: number;
  /** Bumped by every change, so a view knows to redraw. */
  version: number;
}

export function newConversationModel(): ConversationModel {
  return { items: [], toolIndex: new Map(), planIndex: null, commands: [], lastSeq: 0, version: 0 };
}

type Loose = Record<string, unknown>;
const isObject = (value: unknown): value is Loose => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback);

/** A content block's text; what is not text (an image, a resource) as a short bracketed note. */
function blockText(content: unknown): string {
  if (!isObject(content)) return '';
  switch (content.type) {
    case 'text':
      return str(content.text);
    case 'image':
      return '[image]';
    case 'audio':
      return '[audio]';
    case 'resource_link':
      return `[${str(content.name, str(content.uri, 'resource'))}]`;
    case 'resource':
      return `[${isObject(content.resource) ? str(content.resource.uri, 'resource') : 'resource'}]`;
    default:
      return `[${str(content.type, 'content')}]`;
  }
}

/** One line for an update nobody here knows: its kind and the names of what it carries. */
function summarize(data: Loose): string {
  const fields = Object.keys(data).filter((key) => key !== 'sessionUpdate');
  return fields.length > 0 ? fields.join(', ') : '';
}

function toLocations(value: unknown): ToolCallLocation[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isObject).map((location) => ({ path: str(location.path), line: typeof location.line === 'number' ? location.line : null })).filter((l) => l.path !== '');
}

function toContent(value: unknown): ToolCallContent[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isObject).map((item): ToolCallContent => {
    if (item.type === 'diff') return { type: 'diff', path: str(item.path), oldText: typeof item.oldText === 'string' ? item.oldText : null, newText: str(item.newText) };
    if (item.type === 'terminal') return { type: 'terminal', terminalId: str(item.terminalId) };
    if (item.type === 'content') return { type: 'text', text: blockText(item.content) };
    return { type: 'other', summary: str(item.type, 'content') };
  });
}

function toPlan(value: unknown): PlanEntry[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isObject).map((entry) => ({ content: str(entry.content), status: str(entry.status, 'pending'), priority: str(entry.priority, 'medium') }));
}

function toCommands(value: unknown): SlashCommand[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter(isObject)
    .map((command) => ({ name: str(command.name), description: str(command.description), hint: isObject(command.input) ? str(command.input.hint) || null : null }))
    .filter((command) => command.name !== '');
}

function push(model: ConversationModel, item: ConversationItem): void {
  model.items.push(item);
}

/** Appends a chunk to the last item when it is the same kind of stream, else starts one. */
function appendChunk(model: ConversationModel, key: string, kind: 'agent' | 'user' | 'thought', text: string): void {
  const last = model.items.at(-1);
  if (kind === 'thought') {
    if (last?.kind === 'thought') model.items[model.items.length - 1] = { ...last, text: last.text + text };
    else push(model, { kind: 'thought', key, text });
    return;
  }
  if (last?.kind === 'message' && last.role === kind) model.items[model.items.length - 1] = { ...last, markdown: appendMarkdown(last.markdown, text) };
  else push(model, { kind: 'message', key, role: kind, markdown: appendMarkdown(emptyMarkdownStream, text) });
}

function applyToolCall(model: ConversationModel, key: string, data: Loose, isUpdate: boolean): void {
  const id = str(data.toolCallId);
  const index = model.toolIndex.get(id);
  const before: ToolCall | undefined = index === undefined ? undefined : (model.items[index] as Extract<ConversationItem, { kind: 'tool' }>).call;
  // A tool_call states the whole call; an update only the fields it carries.
  const base: ToolCall = before && isUpdate ? before : { id, title: before?.title ?? '', kind: 'other', status: 'pending', locations: [], content: [] };
  const call: ToolCall = {
    id,
    title: typeof data.title === 'string' ? data.title : base.title,
    kind: typeof data.kind === 'string' ? data.kind : base.kind,
    status: typeof data.status === 'string' ? data.status : base.status,
    locations: Array.isArray(data.locations) ? toLocations(data.locations) : base.locations,
    content: Array.isArray(data.content) ? toContent(data.content) : base.content,
  };
  if (index === undefined) {
    model.toolIndex.set(id, model.items.length);
    push(model, { kind: 'tool', key, call });
  } else model.items[index] = { kind: 'tool', key: model.items[index].key, call };
}

function applyUpdate(model: ConversationModel, key: string, data: unknown): void {
  if (!isObject(data)) {
    push(model, { kind: 'other', key, label: 'update', summary: 'not an object' });
    return;
  }
  const kind = str(data.sessionUpdate, 'unknown');
  switch (kind) {
    case 'agent_message_chunk':
      return appendChunk(model, key, 'agent', blockText(data.content));
    case 'user_message_chunk':
      return appendChunk(model, key, 'user', blockText(data.content));
    case 'agent_thought_chunk':
      return appendChunk(model, key, 'thought', blockText(data.content));
    case 'tool_call':
      return applyToolCall(model, key, data, false);
    case 'tool_call_update':
      return applyToolCall(model, key, data, true);
    case 'plan': {
      const entries = toPlan(data.entries);
      if (model.planIndex === null) {
        model.planIndex = model.items.length;
        push(model, { kind: 'plan', key, entries });
      } else model.items[model.planIndex] = { kind: 'plan', key: model.items[model.planIndex].key, entries };
      return;
    }
    case 'available_commands_update':
      model.commands = toCommands(data.availableCommands);
      return;
    // The conversation's record carries the mode, the models and the usage (the header shows them).
    case 'current_mode_update':
    case 'usage_update':
    case 'config_option_update':
      return;
    default:
      push(model, { kind: 'other', key, label: kind, summary: summarize(data) });
  }
}

/** Folds one stored entry into the model (in place); entries at or before `lastSeq` are skipped. */
export function applyEntry(model: ConversationModel, entry: AcpEntry): void {
  if (entry.seq <= model.lastSeq) return;
  model.lastSeq = entry.seq;
  model.version++;
  const key = String(entry.seq);
  const data = isObject(entry.data) ? entry.data : {};
  switch (entry.type) {
    case 'prompt':
      return push(model, { kind: 'prompt', key, text: str(data.text) });
    case 'update':
      return applyUpdate(model, key, entry.data);
    case 'turn':
      return push(model, { kind: 'turn', key, stopReason: str(data.stopReason, 'ended') });
    case 'error':
      return push(model, { kind: 'error', key, code: str(data.code, 'ERROR'), message: str(data.message) });
    case 'notice':
      return push(model, { kind: 'notice', key, text: str(data.text, JSON.stringify(entry.data)) });
    case 'status':
      // The record comes live through acp.watch; its history here is not shown again.
      return;
  }
}

/** A model of `entries` from scratch (tests; a card folds entries in as they come). */
export function foldEntries(entries: readonly AcpEntry[]): ConversationModel {
  const model = newConversationModel();
  for (const entry of entries) applyEntry(model, entry);
  return model;
}
