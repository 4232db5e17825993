import { randomBytes } from 'node:crypto';
import type { NewSessionResponse, LoadSessionResponse } from '@agentclientprotocol/sdk';
import type { AcpAgent, AcpConversation, AcpEntry, AcpInstallProgress } from '../../../src-preload/contract/acp';
import { Emitter, type Disposable, type StreamSink } from '../../../src-preload/rpc';
import type { TurnRecorder } from '../changes/turnRecorder';
import type { ConsentEngine } from '../consent/consentEngine';
import type { EventLog } from '../eventlog/eventLog';
import type { ExecService } from '../exec/execService';
import type { Ledger } from '../ledger/ledger';
import type { SessionService } from '../sessions/sessionService';
import type { Database } from '../store/database';
import type { AcpAgentRegistry } from './acpAgentRegistry';
import { acpClientSide } from './acpClientSide';
import { AcpConnection, type AcpConnectionOptions } from './acpConnection';
import { acpProviderOf, resumableKey } from './acpContinuation';
import { AcpError } from './acpError';
import { AcpEventLog } from './acpEventLog';
import { AcpFileAccess } from './acpFileAccess';
import { installAcpAgent } from './acpInstaller';
import type { AcpPermissionContext } from './acpPermission';
import type { AcpProcessLauncher } from './acpProcess';
import { modelsOf, modesOf, notRunning } from './acpSessionState';
import { AcpTerminals } from './acpTerminals';
import type { Live } from './acpLiveConversation';
import type { WhenWatched } from './acpConsentAsk';

export interface AcpServiceOptions {
  home: string;
  db: Database;
  events: EventLog;
  ledger: Ledger;
  sessions: SessionService;
  consent: ConsentEngine;
  exec: ExecService;
  registry: AcpAgentRegistry;
  launcher: AcpProcessLauncher;
  /** Waits for someone to watch the session's consent cards (UiConsentChannel.whenWatched); without it, asks fail closed as usual. */
  whenWatched?: WhenWatched;
  /** The agent process's environment (default: the host's). */
  env?: () => Record<string, string>;
  connection?: AcpConnectionOptions;
  onError?: (error: unknown) => void;
  /** The session's changes: each prompt is a turn, between a snapshot before the agent sees it and one after it ends. */
  turns?: TurnRecorder;
}

/** The consent engine's agent id for an ACP agent. */
export const acpActor = (agentId: string) => `acp:${agentId}`;

/**
 * ACP conversations: starts an agent process per conversation (through the launcher: plain or sandboxed), speaks
 * ACP to it (AcpConnection), answers its requests (permissions through consent, files, terminals), and keeps every
 * prompt and update in the session's event log (AcpEventLog). A conversation outlives its process: stopped (by the
 * user, its session closing, the host stopping, or a crash) it keeps its history and its continuation key, and
 * Resume starts the agent again and continues with session/load.
 */
export class AcpService {
  private readonly store: AcpEventLog;
  private readonly live = new Map<string, Live>();
  /** Conversations whose agent is being launched: stored as starting, not live yet. */
  private readonly launching = new Set<string>();
  private readonly changed = new Emitter<AcpConversation>();
  private readonly entryAdded = new Emitter<AcpEntry>();
  readonly onDidChange = this.changed.event;
  private disposed = false;

  constructor(private readonly options: AcpServiceOptions) {
    this.store = new AcpEventLog(options.db, options.events);
  }

  agents(): { agents: AcpAgent[]; problems: string[] } {
    const { agents, problems } = this.options.registry.list();
    return {
      agents: agents.map(({ entry, resolvedCommand, installable }) => ({
        id: entry.id,
        name: entry.name,
        source: entry.source,
        command: entry.command,
        args: entry.args,
        resolvedCommand,
        installable,
        install: entry.install ? { package: entry.install.package, version: entry.install.version } : null,
      })),
      problems,
    };
  }

  install(agentId: string, sink: StreamSink<AcpInstallProgress>): Disposable {
    const abort = new AbortController();
    const entry = this.options.registry.get(agentId);
    installAcpAgent(this.options.home, entry, (progress) => sink.push(progress), { signal: abort.signal }).then(
      () => sink.end(),
      (error: unknown) => sink.end(error instanceof AcpError ? error : new AcpError('ACP_INSTALL_FAILED', `installing ${entry.name} failed: ${(error as Error).message}`)),
    );
    return { dispose: () => abort.abort() };
  }

  list(sessionId: string): AcpConversation[] {
    this.options.sessions.get(sessionId);
    return this.store.conversations(sessionId).map((stored) => this.shown(stored));
  }

  get(conversationId: string): AcpConversation {
    const live = this.live.get(conversationId);
    if (live) return live.record;
    const sessionId = this.store.sessionIdOf(conversationId);
    const found = sessionId === undefined ? undefined : this.store.conversations(sessionId).find((c) => c.id === conversationId);
    if (!found) throw new AcpError('ACP_NOT_FOUND', `there is no ACP conversation ${conversationId}`);
    return this.shown(found);
  }

  /** The record to show for a stored one: the live record while its agent runs, stopped once none runs. */
  private shown(stored: AcpConversation): AcpConversation {
    const live = this.live.get(stored.id);
    if (live) return live.record;
    return this.launching.has(stored.id) ? stored : notRunning(stored);
  }

  async start(sessionId: string, agentId: string, actor: string): Promise<AcpConversation> {
    this.assertOpen();
    const session = this.options.sessions.getOpen(sessionId);
    const entry = this.options.registry.resolved(agentId);
    const now = Date.now();
    const record: AcpConversation = {
      id: `acp_${randomBytes(12).toString('base64url')}`,
      sessionId,
      agentId: entry.id,
      agentName: entry.name,
      continuation: { provider: acpProviderOf(entry.id) },
      workspace: session.workspace,
      status: 'starting',
      statusReason: null,
      errorCode: null,
      modes: null,
      models: null,
      usage: null,
      resumable: false,
      sandboxed: false,
      createdAt: now,
      updatedAt: now,
    };
    this.options.ledger.append({ type: 'acp.start', actor, sessionId, payload: { conversationId: record.id, agentId: entry.id, command: entry.command, args: entry.args } });
    this.save(record);
    // The first prompt's "before" snapshot then finds the store ready and the workspace already stored.
    void this.options.turns?.prepare(sessionId);
    const live = await this.launch(record, async (connection) => connection.newSession(session.workspace));
    return live.record;
  }

  async resume(conversationId: string, actor: string): Promise<AcpConversation> {
    this.assertOpen();
    const running = this.live.get(conversationId);
    if (running) return running.record;
    const record = { ...this.get(conversationId) };
    this.options.sessions.getOpen(record.sessionId);
    const key = resumableKey(record);
    this.options.ledger.append({ type: 'acp.resume', actor, sessionId: record.sessionId, payload: { conversationId, agentId: record.agentId, key } });
    record.status = 'starting';
    record.statusReason = null;
    record.errorCode = null;
    this.save(record);
    const live = await this.launch(record, async (connection, l) => {
      if (!connection.canLoadSession) throw new AcpError('ACP_NOT_RESUMABLE', `the ${record.agentName} agent no longer supports session/load; start a new conversation`);
      l.replay = 'load';
      try {
        const loaded = await connection.loadSession(key, record.workspace);
        l.replay = 'after';
        return { ...loaded, sessionId: key };
      } catch (error) {
        l.replay = null;
        throw error;
      }
    });
    return live.record;
  }

  async prompt(conversationId: string, text: string, actor: string): Promise<{ stopReason: string }> {
    const live = this.running(conversationId);
    if (live.turn) throw new AcpError('ACP_BUSY', `the ${live.record.agentName} agent is still working on the last prompt; wait for it or cancel it`);
    this.options.ledger.append({ type: 'acp.prompt', actor, sessionId: live.record.sessionId, payload: { conversationId, chars: text.length } });
    // The prompt and the `prompting` status are committed before the agent sees the prompt, but the host's thread
    // does not block on the event log's writer for it (it runs at a lower priority, and under load a wait is long):
    // the commit is awaited beside the turn's snapshot, and meanwhile both entries reach the page
    // (docs/performance.md#acp-conversations).
    live.replay = null;
    const seq = this.entry(live.record, 'prompt', { text }, { durable: false });
    this.update(live, { status: 'prompting', statusReason: null }, { durable: false });
    const committed = this.store.committed();
    // The snapshot before the turn is taken before the agent sees the prompt, so all it changes lands in the turn;
    // meanwhile live.turn holds it, so a second prompt is refused as busy, and a cancel aborts it as it aborts a
    // waiting permission request: the prompt is then not sent.
    const recording = this.options.turns?.beginTurn(live.record.sessionId, { kind: 'conversation', id: conversationId, seq }, live.record.agentName, text);
    const beforePrompt = new AbortController();
    live.pending.add(beforePrompt);
    live.turn = recording ?? null;
    const [recorded] = await Promise.all([recording, committed]);
    live.pending.delete(beforePrompt);
    if (beforePrompt.signal.aborted) {
      live.turn = null;
      await recorded?.end();
      this.entry(live.record, 'turn', { stopReason: 'cancelled' });
      if (this.live.get(conversationId) === live) this.update(live, { status: 'ready' });
      return { stopReason: 'cancelled' };
    }
    const turn = live.connection.prompt(live.acpSessionId, [{ type: 'text', text }]);
    live.turn = turn;
    try {
      const response = await turn;
      this.entry(live.record, 'turn', { stopReason: response.stopReason });
      if (this.live.get(conversationId) === live) this.update(live, { status: 'ready' });
      return { stopReason: response.stopReason };
    } catch (error) {
      await this.fail(live, error);
      throw error;
    } finally {
      live.turn = null;
      this.options.consent.retireUsed(live.usedGrants);
      live.usedGrants.clear();
      await recorded?.end();
    }
  }

  async cancel(conversationId: string, actor: string): Promise<void> {
    const live = this.running(conversationId);
    this.options.ledger.append({ type: 'acp.cancel', actor, sessionId: live.record.sessionId, payload: { conversationId } });
    for (const pending of live.pending) pending.abort(new Error('the turn was cancelled'));
    await live.connection.cancel(live.acpSessionId);
    const turn = live.turn;
    if (!turn) return;
    // An agent that does not end its turn after the grace is hung: stopped, its tree reaped.
    let timer: NodeJS.Timeout | undefined;
    const hung = await Promise.race([
      turn.then(() => false, () => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), live.connection.cancelGraceMs);
      }),
    ]);
    clearTimeout(timer);
    if (hung) await this.fail(live, new AcpError('ACP_AGENT_HUNG', `the ${live.record.agentName} agent did not end its turn within ${Math.round(live.connection.cancelGraceMs / 1000)} s of being cancelled; it was stopped`));
  }

  async setMode(conversationId: string, modeId: string): Promise<AcpConversation> {
    const live = this.running(conversationId);
    if (live.record.modes && !live.record.modes.available.some((m) => m.id === modeId)) {
      throw new AcpError('ACP_BAD_REQUEST', `the ${live.record.agentName} agent has no mode "${modeId}" (it has: ${live.record.modes.available.map((m) => m.id).join(', ')})`);
    }
    await live.connection.setMode(live.acpSessionId, modeId);
    if (live.record.modes) this.update(live, { modes: { ...live.record.modes, currentModeId: modeId } });
    return live.record;
  }

  async setModel(conversationId: string, model: string): Promise<AcpConversation> {
    const live = this.running(conversationId);
    const models = live.record.models;
    if (!models) throw new AcpError('ACP_BAD_REQUEST', `the ${live.record.agentName} agent offers no model choice`);
    if (!models.available.some((m) => m.value === model)) throw new AcpError('ACP_BAD_REQUEST', `the ${live.record.agentName} agent has no model "${model}" (it has: ${models.available.map((m) => m.value).join(', ')})`);
    await live.connection.setConfigOption(live.acpSessionId, models.configId, model);
    this.update(live, { models: { ...models, current: model } });
    return live.record;
  }

  async stop(conversationId: string, actor: string, reason = 'stopped by the user'): Promise<AcpConversation> {
    const live = this.live.get(conversationId);
    if (!live) return this.get(conversationId);
    this.options.ledger.append({ type: 'acp.stop', actor, sessionId: live.record.sessionId, payload: { conversationId, reason } });
    await this.shutDown(live, 'stopped', reason, null);
    return live.record;
  }

  /** The session's conversations whose agent process is up: what closing the session would stop. */
  liveCount(sessionId: string): number {
    return [...this.live.values()].filter((l) => l.record.sessionId === sessionId).length;
  }

  async stopSession(sessionId: string, actor: string): Promise<void> {
    await Promise.all([...this.live.values()].filter((l) => l.record.sessionId === sessionId).map((l) => this.stop(l.record.id, actor, 'its session was closed')));
  }

  /** Stored entries after `sinceSeq`, then live ones; nothing is missed or repeated between the two. */
  attachUpdates(conversationId: string, sinceSeq: number, sink: StreamSink<AcpEntry>): Disposable {
    const record = this.get(conversationId);
    const buffered: AcpEntry[] = [];
    let replaying = true;
    let last = sinceSeq;
    const push = (entry: AcpEntry) => {
      if (entry.seq <= last) return;
      last = entry.seq;
      sink.push(entry);
    };
    const subscription = this.entryAdded.event((entry) => {
      if (entry.conversationId !== conversationId) return;
      if (replaying) buffered.push(entry);
      else push(entry);
    });
    for (const entry of this.store.entries(record.sessionId, conversationId, sinceSeq)) push(entry);
    replaying = false;
    for (const entry of buffered) push(entry);
    return subscription;
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    await Promise.all([...this.live.values()].map((l) => this.shutDown(l, 'stopped', 'the host stopped', null).catch(this.onError)));
    this.changed.dispose();
    this.entryAdded.dispose();
  }

  private readonly onError = (error: unknown) => (this.options.onError ?? ((e: unknown) => console.error('[acp]', e)))(error);

  private async launch(record: AcpConversation, open: (connection: AcpConnection, live: Live) => Promise<NewSessionResponse | (LoadSessionResponse & { sessionId: string })>): Promise<Live> {
    this.launching.add(record.id);
    try {
      return await this.launchNow(record, open);
    } finally {
      this.launching.delete(record.id);
    }
  }

  private async launchNow(record: AcpConversation, open: (connection: AcpConnection, live: Live) => Promise<NewSessionResponse | (LoadSessionResponse & { sessionId: string })>): Promise<Live> {
    const entry = this.options.registry.resolved(record.agentId);
    const agentId = acpActor(record.agentId);
    const context = { agentId, sessionId: record.sessionId, workspace: record.workspace, conversationId: record.id };
    let process;
    try {
      process = await this.options.launcher.launch({ agent: entry, sessionId: record.sessionId, workspace: record.workspace, env: this.options.env?.() ?? (globalThis.process.env as Record<string, string>) });
    } catch (error) {
      this.failStored(record, error);
      throw error;
    }
    const live: Live = {
      record: { ...record, sandboxed: process.sandboxed },
      connection: undefined as unknown as AcpConnection,
      acpSessionId: record.continuation.key ?? '',
      files: new AcpFileAccess(this.options.consent, this.options.ledger, context, this.options.whenWatched),
      terminals: new AcpTerminals(this.options.consent, this.options.exec, context, this.options.whenWatched),
      pending: new Set(),
      usedGrants: new Set(),
      turn: null,
      replay: null,
    };
    let connection: AcpConnection;
    try {
      connection = await AcpConnection.open(process, entry.name, this.clientSide(live, context), this.options.connection);
    } catch (error) {
      this.failStored(live.record, error);
      throw error;
    }
    live.connection = connection;
    this.live.set(record.id, live);
    void connection.whenEnded().then((reason) => {
      // An end nobody asked for (a crash between turns) marks the conversation failed.
      if (this.live.get(record.id) === live && !live.turn) void this.fail(live, reason);
    });
    try {
      const opened = await open(connection, live);
      live.acpSessionId = opened.sessionId;
      this.update(live, {
        status: 'ready',
        continuation: { provider: acpProviderOf(record.agentId), key: opened.sessionId },
        resumable: connection.canLoadSession,
        modes: modesOf(opened.modes),
        models: modelsOf(opened.configOptions) ?? live.record.models,
      });
      return live;
    } catch (error) {
      await this.fail(live, error);
      throw error;
    }
  }

  private clientSide(live: Live, context: AcpPermissionContext) {
    const { consent, ledger, whenWatched } = this.options;
    return acpClientSide(live, context, {
      consent,
      ledger,
      whenWatched,
      update: (change) => this.update(live, change),
      entry: (type, data) => this.entry(live.record, type, data),
    });
  }

  private running(conversationId: string): Live {
    const live = this.live.get(conversationId);
    if (live) return live;
    const record = this.get(conversationId);
    throw new AcpError('ACP_NOT_RUNNING', `the ${record.agentName} conversation is not running (${record.status}${record.statusReason ? `: ${record.statusReason}` : ''}); resume it first`);
  }

  private async fail(live: Live, error: unknown): Promise<void> {
    const acp = error instanceof AcpError ? error : new AcpError('ACP_AGENT_ERROR', (error as Error).message, { cause: error });
    if (this.live.get(live.record.id) !== live) return;
    this.entry(live.record, 'error', { code: acp.code, message: acp.message });
    await this.shutDown(live, 'failed', acp.message, acp.code, acp);
  }

  private failStored(record: AcpConversation, error: unknown): void {
    const acp = error instanceof AcpError ? error : new AcpError('ACP_AGENT_ERROR', (error as Error).message);
    this.entry(record, 'error', { code: acp.code, message: acp.message });
    this.save({ ...record, status: 'failed', statusReason: acp.message, errorCode: acp.code, updatedAt: Date.now() });
  }

  private async shutDown(live: Live, status: 'stopped' | 'failed', reason: string, code: string | null, error?: AcpError): Promise<void> {
    if (this.live.get(live.record.id) !== live) return;
    this.live.delete(live.record.id);
    for (const pending of live.pending) pending.abort(new Error(reason));
    this.update(live, { status, statusReason: reason, errorCode: code });
    await Promise.all([live.connection.close(error), live.terminals.releaseAll().catch(this.onError)]);
  }

  /** Changes the conversation's record; the status entry is durable unless `options.durable` says otherwise. */
  private update(live: Live, change: Partial<AcpConversation>, options?: { durable?: boolean }): void {
    live.record = { ...live.record, ...change, updatedAt: Date.now() };
    this.save(live.record, options);
  }

  private save(record: AcpConversation, options?: { durable?: boolean }): void {
    this.entry(record, 'status', record, options);
    this.changed.fire(record);
  }

  /** Appends an entry to the conversation's log; its seq, or undefined when the log is closed. */
  private entry(record: AcpConversation, type: AcpEntry['type'], data: unknown, options?: { durable?: boolean }): number | undefined {
    try {
      const entry = this.store.append(record, type, data, options);
      this.entryAdded.fire(entry);
      return entry.seq;
    } catch (error) {
      // The event log closed under a late update (shutdown): the host goes on.
      this.onError(error);
      return undefined;
    }
  }

  private assertOpen(): void {
    if (this.disposed) throw new AcpError('ACP_NOT_RUNNING', 'the host is stopping');
  }
}

