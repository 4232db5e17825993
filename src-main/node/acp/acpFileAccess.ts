import { createHash } from 'node:crypto';
import { RequestError, type ReadTextFileRequest, type WriteTextFileRequest } from '@agentclientprotocol/sdk';
import type { ConsentEngine } from '../consent/consentEngine';
import type { Ledger } from '../ledger/ledger';
import { HostCallError } from '../sandbox/wasm/hostCallError';
import { WorkspaceFiles } from '../sandbox/wasm/workspaceFiles';
import { askPatiently, type WhenWatched } from './acpConsentAsk';
import { workspaceRelative } from './acpWorkspacePath';

export interface AcpFileAccessContext {
  agentId: string;
  sessionId: string;
  workspace: string;
  conversationId: string;
}

const PROPOSED_GRANT_S = 10 * 60;

/**
 * fs/read_text_file and fs/write_text_file: through the workspace-scoped, symlink-safe file access the WASM agents
 * use (WorkspaceFiles: real paths checked, O_NOFOLLOW opens, atomic writes), with consent for the capability
 * (files.read / files.write on the path; a permission the user just gave for that very write covers it, see
 * `approveWrite`). Writes are ledgered (acp.fs.write, with the content's hash). Refusals reach the agent as JSON-RPC
 * errors saying why.
 */
export class AcpFileAccess {
  private readonly files: WorkspaceFiles;
  /** Paths (workspace-relative) whose write the user allowed through a permission request, not yet written. */
  private readonly approvedWrites = new Map<string, number>();

  constructor(
    private readonly engine: ConsentEngine,
    private readonly ledger: Ledger,
    private readonly context: AcpFileAccessContext,
    private readonly whenWatched?: WhenWatched,
  ) {
    this.files = new WorkspaceFiles(context.workspace);
  }

  /** The user allowed a tool call that writes `relativePath`: its fs/write_text_file needs no second card. */
  approveWrite(relativePath: string): void {
    this.approvedWrites.set(relativePath, (this.approvedWrites.get(relativePath) ?? 0) + 1);
  }

  async read(request: ReadTextFileRequest, signal: AbortSignal): Promise<{ content: string }> {
    const rel = this.relative(request.path);
    await this.consent('files.read', rel, `read ${rel}`, signal);
    const { data } = this.guard(() => this.files.read(rel));
    let content = data.toString('utf8');
    const line = request.line ?? null;
    const limit = request.limit ?? null;
    if (line !== null || limit !== null) {
      const lines = content.split('\n');
      const start = Math.max(0, (line ?? 1) - 1);
      content = lines.slice(start, limit !== null ? start + limit : undefined).join('\n');
    }
    return { content };
  }

  async write(request: WriteTextFileRequest, signal: AbortSignal): Promise<void> {
    const rel = this.relative(request.path);
    const approved = this.approvedWrites.get(rel) ?? 0;
    if (approved > 0) {
      if (approved === 1) this.approvedWrites.delete(rel);
      else this.approvedWrites.set(rel, approved - 1);
    } else {
      await this.consent('files.write', rel, `write ${rel} (${Buffer.byteLength(request.content)} bytes)`, signal);
    }
    const data = Buffer.from(request.content, 'utf8');
    const { written } = this.guard(() => this.files.write(rel, data));
    this.ledger.append({
      type: 'acp.fs.write',
      actor: this.context.agentId,
      sessionId: this.context.sessionId,
      payload: { conversationId: this.context.conversationId, path: rel, bytes: written, sha256: createHash('sha256').update(data).digest('hex') },
    });
  }

  private relative(path: string): string {
    const rel = workspaceRelative(path, this.context.workspace);
    if (!rel.ok) {
      this.engine.check({ agentId: this.context.agentId, sessionId: this.context.sessionId, capability: 'files.read', target: path });
      throw RequestError.invalidParams({ path }, `refused: ${rel.reason}; the agent may only touch files inside its workspace`);
    }
    return rel.path;
  }

  private async consent(capability: 'files.read' | 'files.write', target: string, summary: string, signal: AbortSignal): Promise<void> {
    const use = { agentId: this.context.agentId, sessionId: this.context.sessionId, capability, target };
    const checked = this.engine.check(use);
    if (checked.decision === 'allow') return;
    const outcome = await askPatiently(this.engine, { ...use, reason: `the agent wants to ${summary}`, durationS: PROPOSED_GRANT_S, signal }, this.whenWatched);
    if (outcome.decision !== 'allow') throw new RequestError(-32000, `denied by Omniscient Shell's consent: ${outcome.reason}`);
    const used = this.engine.check(use);
    if (used.decision !== 'allow') throw new RequestError(-32000, `denied by Omniscient Shell's consent: ${used.reason}`);
  }

  private guard<T>(work: () => T): T {
    try {
      return work();
    } catch (error) {
      if (error instanceof HostCallError) throw new RequestError(error.code === 'not_found' ? -32002 : -32602, `${error.message}; ${error.hint}`);
      throw new RequestError(-32603, `the file could not be accessed: ${(error as Error).message}`);
    }
  }
}
