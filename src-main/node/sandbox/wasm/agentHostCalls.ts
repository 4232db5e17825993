import { DisposableStore, Emitter, type Disposable } from '../../../../src-preload/rpc';
import type { LedgerAppend } from '../../ledger/ledger';
import type { AgentStore } from './agentStore';
import type { HostCallErrorCode } from './abi';
import { guardedFetch, knownBlockedHost } from './guardedFetch';
import { AgentShell, type ShellBackend } from './agentShell';
import { HostCallError } from './hostCallError';
import type { SandboxConsent } from './sandboxConsent';
import type { WorkspaceFiles } from './workspaceFiles';
import { writePreview } from './writePreview';
import { prepareInjection, type CredentialInjector } from '../../vault/handleInjection';

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
  /**
   * Backpressure for output (event protocol §4): milliseconds to hold the guest's output call before answering it.
   * The guest blocks meanwhile, so a flooding agent is slowed down instead of the host or the UI.
   */
  outputPacing?: (chunk: OutputChunk) => number;
  /** Credential handles (vault/handleInjection.ts): issued by omni.consent for oauth:*, honoured by net_fetch. */
  credentials?: CredentialInjector;
  /** omni.shell: the host's shell tool (ExecService) and the session's workspace; without it, omni.shell is refused. */
  shell?: { backend: ShellBackend; workspace: string };
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
/** Case-insensitively: on a case-insensitive filesystem (macOS, Windows) ".META/context.md" is the same file. */
const isReadOnlyTop = (relative: string): boolean => READ_ONLY_TOP.has(relative.split('/')[0].toLowerCase());

/**
 * The omni.* host functions of one running agent, executed in the host. Every use is checked here, at the moment
 * it happens, against the manifest (declared) and the consent engine (live grants): nothing is decided at spawn.
 * A network request is tied to its grant's AbortSignal: revoking the grant aborts it at once and the guest gets
 * `capability_revoked`, which it can route around.
 */
export class AgentHostCalls implements Disposable {
  private readonly owner = new DisposableStore();
  /** Requests in flight, aborted when the agent stops. */
  private readonly inFlight = new Set<AbortController>();
  /** Credential handles omni.consent issued to this agent: one issued under "Allow once" ends when it stops. */
  private readonly handles = new Set<string>();
  /**
   * Capabilities this run was allowed once (omni.consent answered "Allow once"), with what was asked: an "Allow
   * once" covers one call, so a later call that no grant covers asks the user again rather than failing silently
   * (an agent that ignores a refused call would otherwise report a wrong answer as complete).
   */
  private readonly allowedOnce = new Map<string, { reason: string; durationS: number; scope: string | null }>();
  /** Grants this run's calls used: its spent "Allow once" grants leave the grants list when the run ends. */
  private readonly usedGrants = new Set<string>();
  private readonly outputs = this.owner.add(new Emitter<OutputChunk>());
  private readonly artifacts = this.owner.add(new Emitter<{ id: string; kind: string; path: string; previewHint: string | null }>());
  private readonly states = this.owner.add(new Emitter<{ key: string; value: unknown; scope: string }>());
  readonly onOutput = this.outputs.event;
  readonly onArtifact = this.artifacts.event;
  readonly onState = this.states.event;

  constructor(private readonly o: AgentHostCallsOptions) {}

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
      case 'output': {
        const chunk = { contentType: str(req, 'content_type')!, data: str(req, 'data')!, chunkId: str(req, 'chunk_id', true) };
        this.outputs.fire(chunk);
        const wait = this.o.outputPacing?.(chunk) ?? 0;
        return wait > 0 ? new Promise<Response>((resolve) => setTimeout(() => resolve({}), wait)) : {};
      }
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
      case 'files_create':
        return this.filesWrite(req, true);
      case 'net_fetch':
        return this.netFetch(req);
      case 'shell':
        return this.shell(req);
      case 'kv_get':
        return this.authorizeOrAskAgain('memory').then(() => ({ value: store.kvGet(agentId, req.key) }));
      case 'kv_set':
        return this.authorizeOrAskAgain('memory').then(() => {
          store.kvSet(agentId, req.key, req.value);
          return {};
        });
      case 'scratch_get':
        return { value: store.scratchGet(sessionId, req.key) };
      case 'scratch_set':
        store.scratchSet(sessionId, agentId, req.key, req.value);
        return {};
      default:
        throw new HostCallError('bad_request', `omni.${fn} is not a host function`, 'see guest ABI v1');
    }
  }

  /**
   * Declared in the manifest and allowed by a live grant now, or the engine's typed refusal (capability_denied, or
   * capability_revoked for a grant that was revoked or ran out). Returns the grant's signal, which aborts when the
   * grant ends.
   */
  private authorize(capability: string, target?: string, extra: { method?: string; action?: string } = {}): AbortSignal {
    const { agentId, sessionId, declared, consent } = this.o;
    if (!declared.has(capability)) {
      throw new HostCallError('not_declared', `the manifest does not declare "${capability}"`, `add "${capability}" to the manifest's capabilities`);
    }
    try {
      const { grantId, signal } = consent.authorize({ agentId, sessionId, capability, target, ...extra });
      this.usedGrants.add(grantId);
      return signal;
    } catch (error) {
      throw asHostCallError(error);
    }
  }

  /**
   * authorize(), and when nothing covers the use although this run was allowed the capability once, the user is
   * asked again (the same reason and scope, naming the new target) and the use is authorized by the answer.
   */
  private async authorizeOrAskAgain(capability: string, target?: string): Promise<AbortSignal> {
    try {
      return this.authorize(capability, target);
    } catch (error) {
      const earlier = this.allowedOnce.get(capability);
      if (!earlier || !(error instanceof HostCallError) || error.code !== 'capability_denied') throw error;
      const outcome = await this.askUser({ capability, target, scope: earlier.scope ?? undefined, reason: earlier.reason, durationS: earlier.durationS });
      if (outcome.decision !== 'allow') {
        // The user said no to this call: later calls are refused without asking (the agent may ask itself).
        this.allowedOnce.delete(capability);
        throw new HostCallError('capability_denied', `${capability}${target ? ` on ${target}` : ''} asked again and not allowed: ${outcome.reason}`, 'carry on without it, and say what could not be done');
      }
      // Allowed for a while: that grant covers what follows, nothing more to ask.
      if (!outcome.grant?.once) this.allowedOnce.delete(capability);
      return this.authorize(capability, target);
    }
  }

  /** consent.ask tied to this agent: when it stops (dispose), its prompt is withdrawn instead of waiting out its deadline. */
  private async askUser(ask: Omit<Parameters<SandboxConsent['ask']>[0], 'agentId' | 'sessionId' | 'signal'>): ReturnType<SandboxConsent['ask']> {
    const { agentId, sessionId, consent } = this.o;
    const asking = new AbortController();
    this.inFlight.add(asking);
    try {
      return await consent.ask({ agentId, sessionId, ...ask, signal: asking.signal });
    } finally {
      this.inFlight.delete(asking);
    }
  }

  private async consent(req: Request): Promise<Response> {
    const { agentId, sessionId, declared } = this.o;
    const capability = str(req, 'capability')!;
    if (!declared.has(capability)) {
      throw new HostCallError('not_declared', `the manifest does not declare "${capability}", so it cannot be asked for`, `add "${capability}" to the manifest's capabilities`);
    }
    const durationS = typeof req.duration_s === 'number' && req.duration_s > 0 ? req.duration_s : 0;
    const target = str(req, 'target', true);
    const reason = str(req, 'reason')!;
    // A network target the policy blocks anyway (127.0.0.1, a private range, localhost) is refused before the user
    // is asked: an "Allow" would be followed by a block, and the agent learns why now.
    const blockedHost = capability === 'network' && target !== undefined ? knownBlockedHost(hostOf(target), new Set(this.o.network?.trustedAddresses ?? [])) : null;
    if (blockedHost) return { granted: false, expires_at: null, reason: blockedHost.message, code: blockedHost.code };
    // A write that says what it would write (content_b64) is shown to the user as a diff on the card.
    const content = capability === 'files.write' && target !== undefined && req.content_b64 !== undefined ? Buffer.from(str(req, 'content_b64')!, 'base64') : undefined;
    const write = content ? writePreview(this.o.files, target!, content) : undefined;
    // method and action let a network write be asked for exactly ("POST https://api.example.org/items").
    const outcome = await this.askUser({
      write,
      capability,
      target,
      scope: str(req, 'scope', true),
      method: str(req, 'method', true),
      action: str(req, 'action', true),
      reason,
      durationS,
    });
    if (outcome.decision !== 'allow') return { granted: false, expires_at: null, reason: outcome.reason };
    if (outcome.grant?.once && !capability.startsWith('oauth:')) {
      this.allowedOnce.set(capability, { reason, durationS, scope: outcome.grant.scope });
    }
    // oauth:<provider>.<scope>: the agent gets an opaque handle to use on net_fetch, never the token.
    const handle = capability.startsWith('oauth:') ? this.o.credentials?.issueHandle({ agentId, sessionId, capability }) : undefined;
    if (handle?.handle) this.handles.add(handle.handle);
    return { granted: true, expires_at: outcome.grant?.expiresAt ?? null, ...handle };
  }

  /**
   * Both the path as asked and the path it really is must be granted: a link inside the workspace cannot widen a scope.
   * The asked path was authorized before it was resolved; checking it again would spend an "Allow once" twice (the
   * second check failing as "no live grant"), so only a real path that differs is checked here.
   */
  private authorizePath(capability: string, asked: string, real: string): void {
    if (real !== asked) this.authorize(capability, real);
  }

  private async filesRead(req: Request): Promise<Response> {
    const { files } = this.o;
    const asked = files.lexical(req.path);
    await this.authorizeOrAskAgain('files.read', asked);
    const resolved = files.resolveExisting(req.path);
    this.authorizePath('files.read', asked, resolved.relative);
    const { data } = files.read(req.path);
    return { path: resolved.relative, data_b64: data.toString('base64') };
  }

  private async filesList(req: Request): Promise<Response> {
    const { files } = this.o;
    const path = req.path ?? '';
    const asked = files.lexical(path);
    await this.authorizeOrAskAgain('files.read', asked);
    const resolved = files.resolveExisting(path);
    this.authorizePath('files.read', asked, resolved.relative);
    return { path: resolved.relative, entries: files.list(path).entries };
  }

  /**
   * files_write replaces a file; files_create (`createOnly`) writes only where nothing is yet and otherwise answers
   * `exists`, leaving what is there untouched. Both need files.write for the path as asked and as it really is.
   */
  private async filesWrite(req: Request, createOnly = false): Promise<Response> {
    const { files, audit, agentId, sessionId } = this.o;
    const asked = files.lexical(req.path);
    await this.authorizeOrAskAgain('files.write', asked);
    if (isReadOnlyTop(asked)) {
      throw new HostCallError('capability_denied', `"${asked}" is maintained by the shell and read-only to agents`, 'write elsewhere in the workspace');
    }
    const where = files.resolveForWrite(req.path, false, createOnly);
    // The path as it really is, too: a link in the workspace ("meta-link" -> .meta) must not lead into .meta.
    if (isReadOnlyTop(where.relative)) {
      throw new HostCallError('capability_denied', `"${asked}" leads to "${where.relative}", which is maintained by the shell and read-only to agents`, 'write elsewhere in the workspace');
    }
    this.authorizePath('files.write', asked, where.relative);
    const data = Buffer.from(str(req, 'data_b64')!, 'base64');
    const { relative, written } = createOnly ? files.create(req.path, data) : files.write(req.path, data);
    audit?.({ type: 'agent.file_write', actor: `agent:${agentId}`, sessionId, payload: createOnly ? { path: relative, bytes: written, created: true } : { path: relative, bytes: written } });
    return createOnly ? { path: relative, written, created: true } : { path: relative, written };
  }

  /** Runs, polls, kills or types into a command: per-action consent for every command line (see agentShell.ts). */
  private async shell(req: Request): Promise<Response> {
    const { agentId, sessionId, declared, consent, shell } = this.o;
    if (!declared.has('process.exec')) {
      throw new HostCallError('not_declared', 'the manifest does not declare "process.exec"', 'add "process.exec" to the manifest\'s capabilities');
    }
    if (!shell) throw new HostCallError('capability_denied', 'this host runs no commands for agents', 'carry on without running commands');
    const stopped = new AbortController();
    this.inFlight.add(stopped);
    try {
      return await new AgentShell({ agentId, sessionId, workspace: shell.workspace, consent, backend: shell.backend, stopped: stopped.signal }).call(req);
    } finally {
      this.inFlight.delete(stopped);
    }
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
    const injection = await prepareInjection(this.o.credentials, headers, { agentId, sessionId }).catch((error: unknown) => Promise.reject(asHostCallError(error)));
    const hops: { controller: AbortController; release: () => void }[] = [];
    try {
      const response = await guardedFetch(
        { url, method, headers, body },
        {
          ...network,
          headersFor: injection?.headersFor,
          authorize: (hop) => {
            const host = hop.hostname.replace(/^\[|\]$/g, '');
            const networkSignal = this.authorize('network', host, { method, action: `${method} ${hop.toString()}` });
            // With a handle, its end (grant revoked or expired, connection gone) aborts the request too.
            const grantSignal = injection ? AbortSignal.any([networkSignal, injection.signal]) : networkSignal;
            // The grant's signal carries the engine's error; the guest gets it as a host call error.
            const controller = new AbortController();
            const onEnd = () => controller.abort(asHostCallError(grantSignal.reason, 'the network grant ended while the request was in flight; it was aborted'));
            if (grantSignal.aborted) onEnd();
            else grantSignal.addEventListener('abort', onEnd, { once: true });
            this.inFlight.add(controller);
            hops.push({ controller, release: () => grantSignal.removeEventListener('abort', onEnd) });
            return controller.signal;
          },
        },
      );
      // Origin and path only: a query string is where a URL tends to carry secrets.
      const at = new URL(response.url);
      audit?.({ type: 'agent.net_request', actor: `agent:${agentId}`, sessionId, payload: { method, url: `${at.origin}${at.pathname}`, status: response.status } });
      injection?.recordUse({ method, url: at, status: response.status });
      return { status: response.status, headers: response.headers, body_b64: response.body.toString('base64') };
    } finally {
      for (const { controller, release } of hops) {
        release();
        this.inFlight.delete(controller);
      }
    }
  }

  dispose(): void {
    for (const controller of this.inFlight) controller.abort(new HostCallError('timeout', 'the agent stopped', 'none'));
    this.inFlight.clear();
    for (const handle of this.handles) this.o.credentials?.endWithRun(handle);
    this.handles.clear();
    // The run is over: the "Allow once" grants it spent are no longer in flight.
    this.o.consent.retireUsed?.(this.usedGrants);
    this.usedGrants.clear();
    this.owner.dispose();
  }
}

/** The host part of a network target: "example.org", "127.0.0.1", "[::1]:8080" → "::1", "http://localhost/x" → "localhost". */
function hostOf(target: string): string {
  try {
    return new URL(target.includes('://') ? target : `http://${target}`).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return target;
  }
}

const GUEST_CODES = new Set<string>(['capability_denied', 'capability_revoked', 'not_declared', 'outside_root', 'not_found', 'exists', 'too_large', 'blocked_address', 'timeout', 'bad_request']);

/** The consent engine's typed errors (CapabilityDeniedError, CapabilityRevokedError) as the guest receives them. */
function asHostCallError(error: unknown, context?: string): HostCallError {
  if (error instanceof HostCallError) return error;
  const guest = (error as { toGuestError?: () => { code: string; message: string; hint: string } } | null)?.toGuestError?.();
  if (guest && GUEST_CODES.has(guest.code)) {
    return new HostCallError(guest.code as HostCallErrorCode, context ? `${context}: ${guest.message}` : guest.message, guest.hint);
  }
  return new HostCallError('capability_denied', context ?? 'the capability is not available', 'ask for it with omni.consent, or carry on without it');
}
