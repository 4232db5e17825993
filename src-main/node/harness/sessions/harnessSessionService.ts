import type { HarnessCliFrontend, HarnessLaunch, HarnessOutput, HarnessSession } from '../../../../src-preload/contract/harness';
import { DisposableStore, Emitter, type Disposable, type StreamSink } from '../../../../src-preload/rpc';
import type { ConsentEngine } from '../../consent/consentEngine';
import { assertContinuationProvider, buildProcessInvocationSpec, HarnessError, providerOf, type HarnessContinuationRef } from '..';
import { PermissionPromptServer } from '../permissionPrompt';
import type { Ledger } from '../../ledger/ledger';
import type { SessionService } from '../../sessions/sessionService';
import type { Database } from '../../store/database';
import type { TerminalService } from '../../terminals/terminalService';
import type { CredentialServices } from '../../vault/credentialServices';
import { CLI_HANGUP_GRACE_MS } from './cliHangupGrace';
import { watchClaudeSession } from './claudeSessionWatch';
import { watchCodexThread } from './codexThreadWatch';
import { harnessAgentId, harnessCredential } from './harnessCredentials';
import { resolveHarnessExecutable, type HarnessExecutables } from './harnessExecutables';
import { HarnessSessionError } from './harnessSessionError';
import { HarnessSessionStore } from './harnessSessionStore';
import { HeadlessHarnessRun, isWithheldFromHarness } from './headlessHarnessRun';
import { killRunProcesses, RUN_MARKER } from '../../exec/runProcesses';
import type { TurnHandle, TurnRecorder } from '../../changes/turnRecorder';

export interface HarnessSessionServiceOptions {
  db: Database;
  ledger: Ledger;
  sessions: SessionService;
  terminals: TerminalService;
  credentials: CredentialServices;
  consent: ConsentEngine;
  /** The harness home (`<app home>/harness`): the CLIs' own config dirs, never the user's. */
  aspHome: string;
  /** Configured CLI binaries; without one, the CLI's name is looked up on PATH. */
  executables: HarnessExecutables;
  now?: () => number;
  onError?: (error: unknown) => void;
  /** The session's changes: each launch is a turn, between a snapshot before the CLI starts and one after it ends. */
  turns?: TurnRecorder;
}

export interface LaunchRequest {
  frontend?: HarnessCliFrontend;
  interactionMode?: 'interactive' | 'headless';
  prompt?: string;
  model?: string;
  cols?: number;
  rows?: number;
}

/** How a turn names the agent that acted. */
const FRONTEND_NAMES: Record<HarnessCliFrontend, string> = { 'claude-code': 'Claude Code', 'codex-cli': 'Codex' };

interface LiveLaunch {
  owner: DisposableStore;
  terminalId?: string;
  run?: HeadlessHarnessRun;
  release: () => void;
  /** The launch's turn of the session's changes, ended once the CLI's process tree is gone. */
  turn?: TurnHandle;
}

/** Before a grant is made for it: a headless CLI without a prompt would wait for one on a closed stdin. */
function requirePrompt(frontend: HarnessCliFrontend, mode: 'interactive' | 'headless', prompt: string | undefined): void {
  if (mode === 'headless' && (prompt === undefined || prompt.trim() === '')) {
    throw new HarnessError('HARNESS_PROMPT_REQUIRED', `a headless ${frontend} session needs a prompt to run; give one, or start it interactive`);
  }
}

const RESTART_REASON = 'the host stopped, and the CLI with it; Resume continues the conversation';

/**
 * The host's side of harness sessions (spec "CP"): a stored row per CLI conversation, launched from the harness
 * module's ProcessInvocationSpec as a terminal card (interactive, PTY) or a headless run (pipes, JSON events), its
 * provider-typed continuation key stored once known, and relaunched with it after a restart.
 */
export class HarnessSessionService implements Disposable {
  private readonly store: HarnessSessionStore;
  private readonly live = new Map<string, LiveLaunch>();
  private readonly launching = new Set<string>();
  /** Each session's latest headless run, whose output a card can still read after it ended. */
  private readonly lastRuns = new Map<string, HeadlessHarnessRun>();
  private readonly changed = new Emitter<HarnessSession>();
  readonly onDidChange = this.changed.event;
  private readonly now: () => number;

  constructor(private readonly o: HarnessSessionServiceOptions) {
    this.now = o.now ?? Date.now;
    this.store = new HarnessSessionStore(o.db, this.now);
    // A host that crashed may have left a CLI running (a headless one keeps going without its reader): every process
    // of a launch carries its mark, so whatever is left of a session the previous host ran is ended now.
    this.swept = Promise.all(
      this.store.markInterrupted(RESTART_REASON).map(async (row) => {
        const left = await killRunProcesses(row.id, null, { first: 'SIGTERM', group: 'if-marked' });
        if (left.length > 0) o.onError?.(new Error(`processes ${left.join(', ')} of harness session ${row.id} could not be ended`));
      }),
    ).then(
      () => undefined,
      (error: unknown) => o.onError?.(error),
    );
  }

  /** Settles once the processes previous hosts left behind are ended. */
  readonly swept: Promise<void>;

  list(sessionId: string): HarnessSession[] {
    this.o.sessions.get(sessionId);
    return this.store.list(sessionId);
  }

  get(id: string): HarnessSession {
    const found = this.store.get(id);
    if (!found) throw new HarnessSessionError('HARNESS_NOT_FOUND', `no harness session ${id}; it may belong to another app home`);
    return found;
  }

  /** A new conversation in the session's workspace. */
  async start(sessionId: string, request: LaunchRequest & { frontend: HarnessCliFrontend; interactionMode: 'interactive' | 'headless' }, actor: string): Promise<HarnessLaunch> {
    const session = this.o.sessions.getOpen(sessionId);
    // Checked before anything is stored or granted: a missing CLI is the commonest first failure.
    requirePrompt(request.frontend, request.interactionMode, request.prompt);
    resolveHarnessExecutable(request.frontend, this.o.executables);
    const row = this.store.create({
      sessionId,
      frontend: request.frontend,
      provider: providerOf(request.frontend),
      interactionMode: request.interactionMode,
      ioMode: request.interactionMode === 'interactive' ? 'pty' : 'pipes',
      model: request.model ?? null,
      originCwd: session.workspace,
    });
    try {
      return await this.launch(row, request, undefined, actor);
    } catch (error) {
      // A launch that never started leaves nothing to resume.
      this.store.remove(row.id);
      throw error;
    }
  }

  /**
   * Relaunches a stored conversation with its key, from its origin cwd. Another frontend may be asked for, but only
   * one of the same provider: the harness registry refuses the rest with its deterministic HARNESS_PROVIDER_MISMATCH.
   */
  async resume(id: string, request: LaunchRequest, actor: string): Promise<HarnessLaunch> {
    const row = this.get(id);
    this.o.sessions.getOpen(row.sessionId);
    // Launching counts as running: two resumes at once (two windows, a double click) would run one conversation twice.
    if (this.live.has(id) || this.launching.has(id)) throw new HarnessSessionError('HARNESS_ALREADY_RUNNING', `this ${row.frontend} session is running; stop it before resuming it`);
    const frontend = request.frontend ?? row.frontend;
    assertContinuationProvider(frontend, row.continuation);
    if (row.continuation.key === undefined) {
      throw new HarnessSessionError(
        'HARNESS_NOT_RESUMABLE',
        `the ${row.frontend} session never reported its conversation id (it ended before its first answer), so there is nothing to resume; start a new session`,
      );
    }
    this.launching.add(id);
    try {
      return await this.launch(row, { ...request, frontend }, row.continuation, actor);
    } finally {
      this.launching.delete(id);
    }
  }

  private async launch(row: HarnessSession, request: LaunchRequest, continuation: HarnessContinuationRef | undefined, actor: string): Promise<HarnessLaunch> {
    const frontend = request.frontend ?? row.frontend;
    const interactionMode = request.interactionMode ?? row.interactionMode;
    const ioMode = interactionMode === 'interactive' ? 'pty' : 'pipes';
    requirePrompt(frontend, interactionMode, request.prompt);
    const executable = resolveHarnessExecutable(frontend, this.o.executables);
    const credential = await harnessCredential(this.o.credentials, this.o.consent, { frontend, sessionId: row.sessionId, harnessId: row.id }, actor);
    const owner = new DisposableStore();
    const launch: LiveLaunch = { owner, release: credential.release };
    try {
      // Headless Claude Code asks for tool permissions through the consent engine (docs/harness.md, "Consent for CLI
      // agents"), as the same agent the launch's credential grant names; the prompt's socket goes with the launch.
      const permissionPrompt =
        frontend === 'claude-code' && interactionMode === 'headless'
          ? await PermissionPromptServer.open(this.o.consent, { agentId: harnessAgentId(frontend, row.id), sessionId: row.sessionId, workspace: row.originCwd })
          : undefined;
      if (permissionPrompt) owner.add({ dispose: () => void permissionPrompt.close() });
      const { spec, warnings = [] } = buildProcessInvocationSpec(
        {
          cpSessionId: row.sessionId,
          aspHome: this.o.aspHome,
          spec: {},
          provider: providerOf(frontend),
          frontend,
          ...(row.model ? { model: row.model } : {}),
          interactionMode,
          ioMode,
          ...(continuation ? { continuation } : {}),
          cwd: row.originCwd,
          // No telemetry, error reports or update checks: the credential proxy is the CLI's only network peer.
          env: frontend === 'claude-code' ? { ...credential.env, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' } : credential.env,
        },
        {
          executable,
          originCwd: row.originCwd,
          ...(request.prompt !== undefined ? { prompt: request.prompt } : {}),
          ...(frontend === 'codex-cli' ? { openaiEndpoint: credential.endpoint } : {}),
          ...(permissionPrompt ? { permissionPromptTool: permissionPrompt.invocation } : {}),
        },
      );
      const launchedAt = this.now();
      // Before the CLI starts, so all it writes lands in the turn.
      launch.turn = await this.o.turns?.beginTurn(row.sessionId, { kind: 'harness_run', id: row.id, seq: launchedAt }, FRONTEND_NAMES[frontend], request.prompt ?? `${FRONTEND_NAMES[frontend]} in a terminal`);
      const key = spec.continuation?.key;
      let terminal: HarnessLaunch['terminal'] = null;
      if (interactionMode === 'interactive') {
        terminal = this.o.terminals.openProcess(
          row.sessionId,
          { file: spec.argv[0], args: spec.argv.slice(1), cwd: spec.cwd, env: { ...spec.env, [RUN_MARKER]: row.id }, title: frontend, omitInherited: isWithheldFromHarness, hangupGraceMs: CLI_HANGUP_GRACE_MS },
          request.cols ?? 120,
          request.rows ?? 36,
          actor,
        );
        launch.terminalId = terminal.id;
        const terminalId = terminal.id;
        owner.add(
          this.o.terminals.onDidChange((change) => {
            if (change.kind === 'opened' || change.kind === 'output' || change.terminalId !== terminalId) return;
            if (change.kind === 'exited') this.ended(row.id, launch, 'exited', change.exitCode, null);
            if (change.kind === 'closed') this.ended(row.id, launch, 'stopped', null, change.reason === 'host-stop' ? RESTART_REASON : 'the terminal card was closed');
          }),
        );
        if (frontend === 'codex-cli' && key === undefined && spec.env.CODEX_HOME) {
          owner.add(watchCodexThread(spec.env.CODEX_HOME, spec.cwd, launchedAt, (k) => this.store.ownsKey(k), (k) => this.observed(row.id, k, 'its session file')));
        }
        if (frontend === 'claude-code' && key !== undefined && spec.env.CLAUDE_CONFIG_DIR) {
          owner.add(watchClaudeSession(spec.env.CLAUDE_CONFIG_DIR, spec.cwd, key, launchedAt, (k) => this.store.ownsKey(k), (k) => this.observed(row.id, k, 'its transcript')));
        }
      } else {
        const run = new HeadlessHarnessRun(frontend, { ...spec, env: { ...spec.env, [RUN_MARKER]: row.id } });
        launch.run = run;
        // Its output stays readable after it ends, until the session's next launch replaces it.
        this.lastRuns.get(row.id)?.dispose();
        this.lastRuns.set(row.id, run);
        owner.add(run.onDidReportKey((k) => this.observed(row.id, k, 'its JSON events')));
        owner.add(run.onDidExit(({ exitCode, signal }) => this.ended(row.id, launch, 'exited', exitCode, signal ? `ended by ${signal}` : null)));
      }
      this.live.set(row.id, launch);
      const stored = this.store.update(row.id, {
        frontend,
        interactionMode,
        ioMode,
        status: 'running',
        exitCode: null,
        statusReason: null,
        displayCommand: spec.displayCommand,
        terminalId: terminal?.id ?? null,
        launchedAt,
        ...(key !== undefined ? { continuationKey: key } : {}),
      });
      this.o.ledger.append({
        type: 'harness.launch',
        actor,
        sessionId: row.sessionId,
        payload: { harnessId: row.id, frontend, provider: spec.provider, interactionMode, ioMode, resumed: continuation !== undefined, continuationKey: key ?? null, cwd: spec.cwd, pid: terminal?.pid ?? launch.run?.pid ?? null, displayCommand: spec.displayCommand },
      });
      this.changed.fire(stored);
      return { session: stored, terminal, warnings };
    } catch (error) {
      owner.dispose();
      credential.release();
      void launch.turn?.end();
      throw error;
    }
  }

  /** The CLI reported its conversation id: checked (a UUID; for Claude Code, the one it was started with) and stored. */
  private observed(id: string, key: string, where: string): void {
    const row = this.store.get(id);
    if (!row || row.continuation.key === key) return;
    if (row.continuation.key !== undefined && row.frontend === 'claude-code') {
      // Claude Code was told its id (--session-id / --resume); a different one means the CLI started another
      // conversation, and the one it reports is what a resume needs.
      this.o.ledger.append({ type: 'harness.key_changed', actor: 'host', sessionId: row.sessionId, payload: { harnessId: id, expected: row.continuation.key, reported: key, where } });
    }
    const stored = this.store.update(id, { continuationKey: key });
    this.o.ledger.append({ type: 'harness.continuation', actor: 'host', sessionId: row.sessionId, payload: { harnessId: id, provider: row.provider, continuationKey: key, where } });
    this.changed.fire(stored);
  }

  /** `endTurn` false: the caller ends the launch's turn itself, once the process tree it is stopping is gone. */
  private ended(id: string, launch: LiveLaunch, status: 'exited' | 'stopped', exitCode: number | null, reason: string | null, endTurn = true): void {
    if (this.live.get(id) !== launch) return;
    this.live.delete(id);
    launch.release();
    if (endTurn) void launch.turn?.end();
    const row = this.store.get(id);
    if (!row) return;
    const stored = this.store.update(id, { status, exitCode, statusReason: reason, ...(status === 'stopped' ? { terminalId: null } : {}) });
    this.o.ledger.append({ type: 'harness.end', actor: 'host', sessionId: row.sessionId, payload: { harnessId: id, status, exitCode, reason } });
    this.changed.fire(stored);
    launch.owner.dispose();
  }

  /** Ends the CLI and its whole process tree (the terminal card goes too). */
  async stop(id: string, actor: string): Promise<HarnessSession> {
    const row = this.get(id);
    const launch = this.live.get(id);
    if (!launch) return row;
    // Recorded (and its credential revoked) first, then the process tree is ended.
    this.ended(id, launch, 'stopped', null, `stopped by ${actor}`, false);
    if (launch.terminalId) {
      await this.o.terminals.close(launch.terminalId, actor).catch(() => {});
    } else if (launch.run) {
      await launch.run.kill();
    }
    // What left the tree (a daemon that detached) still carries the launch's mark.
    await killRunProcesses(id, null, { first: 'SIGTERM' });
    await launch.turn?.end();
    return this.get(id);
  }

  /** A closed workspace session takes its harness CLIs along. */
  /**
   * The session's live CLI launches that run headless. An interactive one runs in a terminal card, and is counted
   * with the session's terminals (SessionService.running), not twice.
   */
  headlessLiveCount(sessionId: string): number {
    return [...this.live.entries()].filter(([id, launch]) => launch.terminalId === undefined && this.store.get(id)?.sessionId === sessionId).length;
  }

  async stopSession(sessionId: string, actor: string): Promise<void> {
    const ids = [...this.live.keys()].filter((id) => this.store.get(id)?.sessionId === sessionId);
    await Promise.all(ids.map((id) => this.stop(id, actor)));
  }

  /** Pids of the live launch's CLI (for tests and the UI's "running" state). */
  pidOf(id: string): number | undefined {
    const launch = this.live.get(id);
    if (!launch) return undefined;
    if (launch.run) return launch.run.pid;
    return this.o.terminals.list(this.get(id).sessionId).find((t) => t.id === launch.terminalId)?.pid;
  }

  /** A headless run's parsed output: kept items, then live ones; ends after its exit. */
  attachOutput(id: string, sink: StreamSink<HarnessOutput>): Disposable {
    const run = this.live.get(id)?.run ?? this.lastRuns.get(id);
    if (!run) {
      sink.end();
      return { dispose: () => {} };
    }
    for (const item of run.snapshot()) sink.push(item);
    if (run.exit) {
      sink.end();
      return { dispose: () => {} };
    }
    return run.onDidOutput((item) => {
      sink.push(item);
      if (item.type === 'exit') sink.end();
    });
  }

  async dispose(): Promise<void> {
    await this.swept;
    const all = [...this.live.entries()];
    await Promise.all(all.map(([, launch]) => launch.run?.kill()));
    for (const [id, launch] of all) this.ended(id, launch, 'stopped', null, RESTART_REASON);
    await Promise.all(all.map(([id]) => killRunProcesses(id, null, { first: 'SIGTERM', graceMs: CLI_HANGUP_GRACE_MS, giveUpMs: CLI_HANGUP_GRACE_MS + 3000 })));
    for (const run of this.lastRuns.values()) run.dispose();
    this.changed.dispose();
  }
}
