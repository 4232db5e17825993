import { DisposableStore, Emitter, type Disposable } from '../../../../src-preload/rpc';
import type { LedgerAppend } from '../../ledger/ledger';
import type { AgentStore } from './agentStore';
import { guardedFetch } from './guardedFetch';
import { HostCallError } from './hostCallError';
import type { SandboxConsent } from './sandboxConsent';
import type { WorkspaceFiles } from './workspaceFiles';

export interface AgentHostCallsOptions {
  agentId: string;
  sessionId: string;
  /** The manifest's capabilities. */
  declared: ReadonlySet<string>;
  consent: SandboxConsent;
  files: WorkspaceFiles;
  store: AgentStore;
  /** Records file writes and network requests (the audit ledger's `append`). */
  audit?: (entry: LedgerAppend) => void;
  network?: { trustedAddresses?: ReadonlySet<string>; timeoutMs?: number; maxBodyBytes?: number };
}

export interface OutputChunk {
  contentType: string;
  data: string;
  chunkId?: string;
}

type Request = Record<string, unknown>;
type Response = Record<string, unknown>;

const str = (req: Request, key: string, optional = false): string | undefined => {
  const value = req[key];
  if (value === undefined && optional) return undefined;
  if (typeof value !== 'string') throw new HostCallError('bad_request', `"${key}" must be a string`, `send {"${key}": "..."}`);
  return value;
};

/** Folders agents may read but never write: the shell maintains them (.meta/context.md, .meta/session.json). */
const READ_ONLY_TOP = new Set(['.meta']);

/**
 * The omni.* host functions of one running agent, executed in the host. Every use is checked here, at the moment
 * it happens, against the manifest (declared) and the consent engine (live grants): nothing is decided at spawn.
 * A network request is tied to its grant: revoking the grant aborts it at once and the guest gets
 * `capability_revoked`, which it can route around.
 */
export class AgentHostCalls implements Disposable {
  private readonly owner = new DisposableStore();
  private readonly inFlight = new Map<string, Set<AbortController>>();
  /** Capabilities whose grant for this agent was revoked or expired: a later denial says `capability_revoked`. */
  private readonly revoked = new Set<string>();
  private readonly outputs = this.owner.add(new Emitter<OutputChunk>());
  private readonly artifacts = this.owner.add(new Emitter<{ id: string; kind: string; path: string; previewHint: string | null }>());
  private readonly states = this.owner.add(new Emitter<{ key: string; value: unknown; scope: string }>());
  readonly onOutput = this.outputs.event;
  readonly onArtifact = this.artifacts.event;
  readonly onState = this.states.event;

  constructor(private readonly o: AgentHostCallsOptions) {
    this.owner.add(
      o.consent.onDidRevoke((grant) => {
        if (grant.agentId !== o.agentId || grant.sessionId !== o.sessionId) return;
        this.revoked.add(grant.capability);
        const controllers = this.inFlight.get(grant.id);
        if (!controllers) return;
        const reason = new HostCallError(
          'capability_revoked',
          `the ${grant.capability} grant was revoked while the request was in flight; it was aborted`,
          'carry on without it, or ask again with omni.consent',
        );
        for (const controller of controllers) controller.abort(reason);
      }),
    );
  }

  /** Runs one call; the answer is the response JSON the guest receives. Never throws. */
  async call(fn: string, requestJson: string): Promise<string> {
    try {
      let req: unknown;
      try {
        req = JSON.parse(requestJson);
      } catch {
        throw new HostCallError('bad_request', 'the request is not JSON', 'send a UTF-8 JSON object');
      }
      if (typeof req !== 'object' || req === null || Array.isArray(req)) throw new HostCallError('bad_request', 'the request must be a JSON object', 'send {...}');
      return JSON.stringify({ ok: true, ...(await this.dispatch(fn, req as Request)) });
    } catch (error) {
      const refusal =
        error instanceof HostCallError
          ? error
          : // Host-side failures keep their details (paths of this machine) out of the guest.
            new HostCallError('bad_request', `the host could not do this (${(error as NodeJS.ErrnoException).code ?? 'error'})`, 'try again, or a different path');
      return JSON.stringify({ ok: false, error: refusal.toJSON() });
    }
  }

  private dispatch(fn: string, req: Request): Promise<Response> | Response {
    const { agentId, sessionId, store } = this.o;
    switch (fn) {
      case 'output':
        this.outputs.fire({ contentType: str(req, 'content_type')!, data: str(req, 'data')!, chunkId: str(req, 'chunk_id', true) });
        return {};
      case 'artifact':
        this.artifacts.fire({ id: str(req, 'id')!, kind: str(req, 'kind')!, path: str(req, 'path')!, previewHint: str(req, 'preview_hint', true) ?? null });
        return {};
      case 'state':
        this.states.fire({ key: str(req, 'key')!, value: req.value, scope: str(req, 'scope', true) ?? 'session' });
        return {};
      case 'consent':
        return this.consent(req);
      case 'files_read':
        return this.filesRead(req);
      case 'files_list':
        return this.filesList(req);
      case 'files_write':
        return this.filesWrite(req);
      case 'net_fetch':
        return this.netFetch(req);
      case 'kv_get':
        this.authorize('memory');
        return { value: store.kvGet(agentId, req.key) };
      case 'kv_set':
        this.authorize('memory');
        store.kvSet(agentId, req.key, req.value);
        return {};
      case 'scratch_get':
        return { value: store.scratchGet(sessionId, req.key) };
      case 'scratch_set':
        store.scratchSet(sessionId, agentId, req.key, req.value);
        return {};
      default:
        throw new HostCallError('bad_request', `omni.${fn} is not a host function`, 'see guest ABI v1');
    }
  }

  /** Declared in the manifest and allowed by a live grant now, or a typed refusal. Returns the grant's id. */
  private authorize(capability: string, target?: string): string {
    const { agentId, sessionId, declared, consent } = this.o;
    if (!declared.has(capability)) {
      throw new HostCallError('not_declared', `the manifest does not declare "${capability}"`, `add "${capability}" to the manifest's capabilities`);
    }
    const result = consent.check({ agentId, sessionId, capability, target });
    if (result.decision === 'allow') return result.grantId ?? '';
    const what = target === undefined ? capability : `${capability} on ${target}`;
    if (this.revoked.has(capability) || /revok|expir/i.test(result.reason)) {
      throw new HostCallError('capability_revoked', `${what} is no longer granted: ${result.reason}`, 'carry on without it, or ask again with omni.consent');
    }
    throw new HostCallError('capability_denied', `${what} is not granted: ${result.reason}`, `ask for it with omni.consent {"capability": "${capability}", ...}`);
  }

  private async consent(req: Request): Promise<Response> {
    const { agentId, sessionId, declared, consent } = this.o;
    const capability = str(req, 'capability')!;
    if (!declared.has(capability)) {
      throw new HostCallError('not_declared', `the manifest does not declare "${capability}", so it cannot be asked for`, `add "${capability}" to the manifest's capabilities`);
    }
    const durationS = typeof req.duration_s === 'number' && req.duration_s > 0 ? req.duration_s : 0;
    const target = str(req, 'target', true);
    const decision = await consent.request({ agentId, sessionId, capability, target, reason: str(req, 'reason')!, durationS });
    if (decision !== 'allow') return { granted: false, expires_at: null };
    const { grantId } = consent.check({ agentId, sessionId, capability, target });
    this.revoked.delete(capability);
    const grant = consent.list(sessionId).find((g) => g.id === grantId);
    return { granted: true, expires_at: grant?.expiresAt ?? null };
  }

  /** Both the path as asked and the path it really is must be granted: a link inside the workspace cannot widen a scope. */
  private authorizePath(capability: string, asked: string, real: string): void {
    this.authorize(capability, asked);
    if (real !== asked) this.authorize(capability, real);
  }

  private filesRead(req: Request): Response {
    const { files } = this.o;
    const asked = files.lexical(req.path);
    this.authorize('files.read', asked);
    const resolved = files.resolveExisting(req.path);
    this.authorizePath('files.read', asked, resolved.relative);
    const { data } = files.read(req.path);
    return { path: resolved.relative, data_b64: data.toString('base64') };
  }

  private filesList(req: Request): Response {
    const { files } = this.o;
    const path = req.path ?? '';
    const asked = files.lexical(path);
    this.authorize('files.read', asked);
    const resolved = files.resolveExisting(path);
    this.authorizePath('files.read', asked, resolved.relative);
    return { path: resolved.relative, entries: files.list(path).entries };
  }

  private filesWrite(req: Request): Response {
    const { files, audit, agentId, sessionId } = this.o;
    const asked = files.lexical(req.path);
    this.authorize('files.write', asked);
    if (READ_ONLY_TOP.has(asked.split('/')[0])) {
      throw new HostCallError('capability_denied', `"${asked}" is maintained by the shell and read-only to agents`, 'write elsewhere in the workspace');
    }
    const where = files.resolveForWrite(req.path, false);
    this.authorizePath('files.write', asked, where.relative);
    const data = Buffer.from(str(req, 'data_b64')!, 'base64');
    const { relative, written } = files.write(req.path, data);
    audit?.({ type: 'agent.file_write', actor: `agent:${agentId}`, sessionId, payload: { path: relative, bytes: written } });
    return { path: relative, written };
  }

  private async netFetch(req: Request): Promise<Response> {
    const { audit, agentId, sessionId, network } = this.o;
    const url = str(req, 'url')!;
    const method = (str(req, 'method', true) ?? 'GET').toUpperCase();
    const headers: Record<string, string> = {};
    if (req.headers !== undefined) {
      if (typeof req.headers !== 'object' || req.headers === null) throw new HostCallError('bad_request', '"headers" must be an object of strings', 'send {"headers": {"accept": "..."}}');
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers[name] = value;
    }
    const body = req.body_b64 === undefined ? undefined : Buffer.from(str(req, 'body_b64')!, 'base64');
    const controllers: { grantId: string; controller: AbortController }[] = [];
    try {
      const response = await guardedFetch(
        { url, method, headers, body },
        {
          ...network,
          authorize: (hop) => {
            const grantId = this.authorize('network', hop.hostname.replace(/^\[|\]$/g, ''));
            const controller = new AbortController();
            controllers.push({ grantId, controller });
            let set = this.inFlight.get(grantId);
            if (!set) this.inFlight.set(grantId, (set = new Set()));
            set.add(controller);
            return controller.signal;
          },
        },
      );
      // Origin and path only: a query string is where a URL tends to carry secrets.
      const at = new URL(response.url);
      audit?.({ type: 'agent.net_request', actor: `agent:${agentId}`, sessionId, payload: { method, url: `${at.origin}${at.pathname}`, status: response.status } });
      return { status: response.status, headers: response.headers, body_b64: response.body.toString('base64') };
    } finally {
      for (const { grantId, controller } of controllers) {
        const set = this.inFlight.get(grantId);
        set?.delete(controller);
        if (set?.size === 0) this.inFlight.delete(grantId);
      }
    }
  }

  dispose(): void {
    for (const set of this.inFlight.values()) for (const controller of set) controller.abort(new HostCallError('timeout', 'the agent stopped', 'none'));
    this.inFlight.clear();
    this.owner.dispose();
  }
}
