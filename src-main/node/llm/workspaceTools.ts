import type { Disposable } from '../../../src-preload/rpc';
import type { ToolCall, ToolSpec } from './transcript';

export type WorkspaceToolName = 'read_file' | 'write_file' | 'list_files';

/** The host calls the tools go through: a WASM agent's own omni.* functions (AgentHostCalls), consent checks and all. */
export interface HostFileCalls extends Disposable {
  call(fn: string, requestJson: string): Promise<string>;
}

interface ToolDefinition {
  spec: ToolSpec;
  /** The capability the manifest must declare and the user must grant. */
  capability: 'files.read' | 'files.write';
}

const PATH = { type: 'string', description: 'a path relative to the workspace root, with / between folders' };

export const WORKSPACE_TOOLS: Readonly<Record<WorkspaceToolName, ToolDefinition>> = {
  read_file: {
    capability: 'files.read',
    spec: { name: 'read_file', description: 'Read a text file of the workspace.', parameters: { type: 'object', properties: { path: PATH }, required: ['path'], additionalProperties: false } },
  },
  write_file: {
    capability: 'files.write',
    spec: {
      name: 'write_file',
      description: 'Create or replace a file of the workspace with the given text.',
      parameters: { type: 'object', properties: { path: PATH, content: { type: 'string', description: 'the whole new content' } }, required: ['path', 'content'], additionalProperties: false },
    },
  },
  list_files: {
    capability: 'files.read',
    spec: { name: 'list_files', description: 'List a folder of the workspace ("" for its root).', parameters: { type: 'object', properties: { path: PATH }, required: ['path'], additionalProperties: false } },
  },
};

export const WORKSPACE_TOOL_NAMES = Object.keys(WORKSPACE_TOOLS) as WorkspaceToolName[];

/** More than this of a file goes back to the model cut, with a note (a model's context is not the place for it). */
const MAX_TOOL_OUTPUT_CHARS = 100_000;
/** How long a grant the tools ask for when the model first touches a path; the user's card decides. */
const GRANT_DURATION_S = 600;

export interface ToolOutcome {
  output: string;
  isError: boolean;
  /** One line for the run's log card. */
  summary: string;
}

interface HostAnswer {
  ok: boolean;
  error?: { code: string; message: string; hint: string };
  [key: string]: unknown;
}

/**
 * read_file, write_file and list_files for a model-backed agent. Each runs as the WASM agent's host call of the same
 * meaning (files_read, files_write, files_list): declared in the manifest, allowed by a live grant for the path as
 * asked and as it really is, `.meta` read-only, writes ledgered and (in a spawned turn) staged until the turn
 * completes. Without a grant the user is asked on a card, once per call, naming the path; a refusal goes back to
 * the model as the tool's error, so it can carry on without.
 */
export class WorkspaceTools implements Disposable {
  constructor(
    private readonly calls: HostFileCalls,
    private readonly enabled: readonly WorkspaceToolName[],
  ) {}

  specs(): ToolSpec[] {
    return this.enabled.map((name) => WORKSPACE_TOOLS[name].spec);
  }

  async run(call: ToolCall): Promise<ToolOutcome> {
    const name = call.name as WorkspaceToolName;
    if (!this.enabled.includes(name)) return failed(call, `there is no tool "${call.name}"; the tools are ${this.enabled.join(', ')}`);
    const path = call.input.path;
    if (typeof path !== 'string') return failed(call, 'the input needs "path": a path relative to the workspace root');
    if (name === 'write_file') {
      const content = call.input.content;
      if (typeof content !== 'string') return failed(call, 'the input needs "content": the text to write');
      const data_b64 = Buffer.from(content, 'utf8').toString('base64');
      // content_b64 on the ask: the card shows what would be written (a diff when the file exists).
      const answer = await this.hostCall('files_write', { path, data_b64 }, 'files.write', `write ${path}`, { content_b64: data_b64 });
      if (!answer.ok) return refused(call, answer);
      return { output: `wrote ${String(answer.written)} bytes to ${String(answer.path)}`, isError: false, summary: `write_file ${String(answer.path)}: ${String(answer.written)} bytes` };
    }
    if (name === 'list_files') {
      const answer = await this.hostCall('files_list', { path }, 'files.read', `list ${path || 'the workspace root'}`);
      if (!answer.ok) return refused(call, answer);
      const entries = answer.entries as unknown[];
      return { output: JSON.stringify(entries).slice(0, MAX_TOOL_OUTPUT_CHARS), isError: false, summary: `list_files ${path || '.'}: ${entries.length} entries` };
    }
    const answer = await this.hostCall('files_read', { path }, 'files.read', `read ${path}`);
    if (!answer.ok) return refused(call, answer);
    const data = Buffer.from(String(answer.data_b64), 'base64');
    const summary = `read_file ${String(answer.path)}: ${data.length} bytes`;
    if (data.includes(0)) return { output: `${String(answer.path)} is a binary file of ${data.length} bytes; it cannot be shown as text`, isError: false, summary };
    const text = data.toString('utf8');
    const output = text.length > MAX_TOOL_OUTPUT_CHARS ? `${text.slice(0, MAX_TOOL_OUTPUT_CHARS)}\n[… cut: the file has ${text.length} characters]` : text;
    return { output, isError: false, summary };
  }

  /** The host call; refused for want of a grant, the user is asked (a card naming the path) and it is tried once more. */
  private async hostCall(fn: string, request: Record<string, unknown>, capability: string, what: string, askExtra: Record<string, unknown> = {}): Promise<HostAnswer> {
    const answer = await this.callJson(fn, request);
    if (answer.ok || answer.error?.code !== 'capability_denied') return answer;
    const consent = await this.callJson('consent', { capability, target: request.path, reason: `the model asks to ${what}`, duration_s: GRANT_DURATION_S, ...askExtra });
    return consent.ok && consent.granted === true ? this.callJson(fn, request) : answer;
  }

  private async callJson(fn: string, request: Record<string, unknown>): Promise<HostAnswer> {
    return JSON.parse(await this.calls.call(fn, JSON.stringify(request))) as HostAnswer;
  }

  dispose(): void {
    this.calls.dispose();
  }
}

function failed(call: ToolCall, message: string): ToolOutcome {
  return { output: message, isError: true, summary: `${call.name}: refused (${message})` };
}

function refused(call: ToolCall, answer: HostAnswer): ToolOutcome {
  const error = answer.error ?? { code: 'bad_request', message: 'the host refused', hint: '' };
  const output = `${error.code}: ${error.message}${error.hint ? ` (${error.hint})` : ''}`;
  return { output, isError: true, summary: `${call.name} ${String(call.input.path ?? '')}: refused, ${error.code}: ${error.message}` };
}
