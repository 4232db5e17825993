import type { ToolCallUpdate } from '@agentclientprotocol/sdk';
import { workspaceRelative } from './acpWorkspacePath';

/**
 * What an ACP tool call would do, in the consent engine's terms, and in plain words for the consent card: `$ cmd`
 * in its folder, a write with its diff, a fetch with its URL. A file outside the workspace is refused outright.
 */
export type AcpToolUse =
  | { ok: true; capability: string; target?: string; method?: string; action?: string; summary: string }
  | { ok: false; reason: string; capability: string; target?: string };

const str = (value: unknown): string | undefined => (typeof value === 'string' && value.length > 0 ? value : undefined);
const MAX_DIFF = 1500;

export function acpToolCapability(tool: ToolCallUpdate, workspace: string): AcpToolUse {
  const input = (tool.rawInput && typeof tool.rawInput === 'object' ? tool.rawInput : {}) as Record<string, unknown>;
  const title = str(tool.title) ?? 'a tool call';
  const kind = tool.kind ?? 'other';
  const path = tool.locations?.[0]?.path ?? str(input.file_path) ?? str(input.path) ?? str(input.notebook_path);
  if (kind === 'edit' || kind === 'delete' || kind === 'move' || kind === 'read' || kind === 'search') {
    const capability = kind === 'read' || kind === 'search' ? 'files.read' : 'files.write';
    if (path === undefined) {
      if (capability === 'files.read') return { ok: true, capability, target: '', summary: `${title} (in the workspace)` };
      return { ok: false, capability, reason: `the agent's ${kind} call names no file` };
    }
    const rel = workspaceRelative(path, workspace);
    if (!rel.ok) return { ok: false, capability, target: path, reason: rel.reason };
    const shown = rel.path === '' ? 'the workspace' : rel.path;
    const verb = { edit: 'write', delete: 'delete', move: 'move', read: 'read', search: 'search' }[kind];
    return { ok: true, capability, target: rel.path, summary: `${verb} ${shown}${diffOf(tool)}` };
  }
  if (kind === 'execute') {
    const command = str(input.command) ?? (Array.isArray(input.command) ? (input.command as unknown[]).map(String).join(' ') : undefined) ?? title;
    const cwd = str(input.cwd) ?? workspace;
    return { ok: true, capability: 'process.exec', action: command, summary: `run $ ${command} in ${cwd}` };
  }
  if (kind === 'fetch') {
    const url = str(input.url) ?? str(input.uri);
    if (!url) return { ok: true, capability: 'network', method: 'GET', action: title, target: title, summary: `fetch: ${title}` };
    let host: string;
    try {
      host = new URL(url).host;
    } catch {
      return { ok: false, capability: 'network', target: url, reason: `"${url}" is not a URL` };
    }
    return { ok: true, capability: 'network', target: url, method: 'GET', action: url, summary: `fetch ${url} (${host})` };
  }
  // think, switch_mode, other: the app cannot tell what it touches, so it is asked for each time, as it is titled.
  return { ok: true, capability: 'process.exec', action: `${kind}: ${title}`, summary: `${title} (a ${kind} tool call the app cannot scope; asked each time)` };
}

/** The diff a write carries, shortened for the card. */
function diffOf(tool: ToolCallUpdate): string {
  const diff = tool.content?.find((c) => c.type === 'diff');
  if (!diff || diff.type !== 'diff') return '';
  const before = diff.oldText ?? '';
  const text = `\n--- ${before === '' ? '(new file)' : 'before'}\n${before}\n+++ after\n${diff.newText}`;
  return text.length > MAX_DIFF ? `${text.slice(0, MAX_DIFF - 1)}…` : text;
}
