import { homedir } from 'node:os';
import { join } from 'node:path';
import { contract, type Contract, type LedgerEntry, type SessionChange } from '../../src-preload/contract';
import { DisposableStore, type Handlers } from '../../src-preload/rpc';
import { HostLog } from './base/hostLog';
import { atHandlerEdge } from './handlerErrors';
import { createAgentHandlers } from './agents/runtime/agentHandlers';
import { AgentRuntime } from './agents/runtime/agentRuntime';
import { modelConfigPath } from './llm';
import { AgentRegistry, bundledAgentsDir, userAgentsDir } from './agents/registry';
import { ConsentEngine } from './consent/consentEngine';
import { createConsentHandlers } from './consent/consentHandlers';
import { UiConsentChannel } from './consent/uiConsentChannel';
import { HostEventLog } from './eventlog/hostEventLog';
import { CheckpointStore, ContextRecorder, ProgressLog } from './goal/metaShell';
import { SpawnAgentService } from './goal/metaShell/spawnAgent';
import { agentRunLauncher } from './exec/agentRunLauncher';
import { createExecHandlers } from './exec/execHandlers';
import { createHarnessHandlers } from './harness/sessions/harnessHandlers';
import { executablesFromEnv } from './harness/sessions/harnessExecutables';
import { HarnessSessionService } from './harness/sessions/harnessSessionService';
import { createGoalHandlers } from './goal/goalHandlers';
import { Orchestrator } from './goal/orchestrator/orchestrator';
import type { GoalRunService } from './goal/orchestrator/goalRunTypes';
import { ExecService } from './exec/execService';
import { databasePath } from './home';
import { lockHome } from './homeLock';
import { Ledger } from './ledger/ledger';
import { LedgerQuery } from './ledger/ledgerQuery';
import { SessionService } from './sessions/sessionService';
import { openDatabase, openDatabaseReadOnly, type Database } from './store/database';
import { ledgerFileIdentity } from './ledger/ledgerRecord';
import { decideSigning } from './ledger/signingGate';
import { keychainTrust } from './ledger/ledgerTrust';
import { exportLedger, newExportPath } from './ledger/ledgerExport';
import { verifyStoredLedger } from './ledger/verifyStoredLedger';
import { keychainChoiceFromEnv, openHostKeychain, type KeychainChoice } from './vault/hostKeychain';
import { TerminalService } from './terminals/terminalService';
import { CredentialServices } from './vault/credentialServices';
import { createCredentialHandlers } from './vault/credentialHandlers';
import { applyProviderConfig } from './vault/providerConfig';
import type { ProviderRegistry } from './vault/providers';
import { SecretRegistry } from './vault/secretRegistry';
import { SecretScrubber } from './vault/secretScrubber';
import { AgentStore } from './sandbox/wasm/agentStore';
import { WasmSandbox } from './sandbox/wasm/wasmSandbox';
import { createNativeSandbox } from './sandbox/native/nativeSandbox';

export interface HostOptions {
  home: string;
  version: string;
  /** Default: OMNI_KEYCHAIN from the environment, else the OS keychain. */
  keychain?: KeychainChoice;
  /** The credential providers (tests point a provider's API at a local stand-in); default: the built-in ones. */
  providers?: ProviderRegistry;
}

export interface HostServices {
  readonly handlers: Handlers<Contract>;
  readonly db: Database;
  readonly ledger: Ledger;
  /** The secret values the vault hands out are registered here, so they are scrubbed from the ledger and the log. */
  readonly secrets: SecretRegistry;
  /** Where the host reports failures; every line is scrubbed of secrets. */
  readonly log: HostLog;
  /** Everything that streams, per session, replayable into the session's state. */
  readonly events: HostEventLog;
  /** Grants, checks at every use, prompts (through the UI's consent cards), expiry and revocation. */
  readonly consent: ConsentEngine;
  /** Connections (API keys, OAuth), handles and the credential proxy (docs/credentials.md). */
  readonly credentials: CredentialServices;
  /** The host protocol's durable core (docs/meta-shell-protocol.md): checkpoints, log_progress, context.md in the ledger. */
  readonly checkpoints: CheckpointStore;
  readonly progress: ProgressLog;
  readonly contextRecorder: ContextRecorder;
  /** spawn_agent (docs/meta-shell-protocol.md): `spawnAgent.spawn(...)`, its checkpoints' resume and wait. */
  readonly spawnAgent: SpawnAgentService;
  /** The orchestrator: goal runs (plan, execute, verify, halt, resume, rollback) per session (docs/orchestrator.md). */
  readonly goalRuns: GoalRunService;
  dispose(): Promise<void>;
}

/** Who acts through the bridge: the person at the UI (agents get their own actor ids in later layers). */
const USER = 'user';

/**
 * Starts the host of a home: takes the home's lock first (HomeInUseError, with nothing opened, when another host runs
 * on it), then composes the services; the lock is released once they are disposed, or if composing them fails.
 */
export async function createHostServices(options: HostOptions): Promise<HostServices> {
  const homeLock = await lockHome(options.home);
  try {
    const services = await composeHostServices(options);
    return {
      ...services,
      async dispose() {
        try {
          await services.dispose();
        } finally {
          homeLock.release();
        }
      },
    };
  } catch (error) {
    homeLock.release();
    throw error;
  }
}

/** Composes the host's services and implements every call and stream of the contract on top of them. */
async function composeHostServices(options: HostOptions): Promise<HostServices> {
  const startedAt = Date.now();
  const db = openDatabase(databasePath(options.home));
  const owner = new DisposableStore();
  // Secrets never reach the ledger or the log: the scrubber takes registered values (and anything shaped like a
  // token) out of every payload at ingest, before the hash chain commits to it, and out of every log line.
  const secrets = new SecretRegistry();
  const scrubber = new SecretScrubber(secrets);
  const log = new HostLog({ scrub: (text) => scrubber.scrubText(text), prefix: '[host]' });
  const ledger = owner.add(new Ledger(db, { scrub: (payload) => scrubber.scrubPayload(payload), onError: (error) => log.error('ledger:', error) }));
  const ledgerQuery = new LedgerQuery(db);
  const sessions = owner.add(new SessionService(db, ledger));
  const terminals = new TerminalService(sessions, ledger);
  const consent = owner.add(new ConsentEngine(db, ledger, { onError: (error) => log.error('consent:', error) }));
  const consentCards = new UiConsentChannel();
  owner.add(consent.attachChannel(consentCards));
  // Registered after the ledger and sessions, so disposed (its pending output written) before them.
  const events = owner.add(
    new HostEventLog(db, sessions, terminals, {
      log: { secrets, onWriteError: (error) => log.error('event log write failed:', error) },
      retention: { onError: (error) => log.error('event log retention failed:', error) },
    }),
  );

  // The host protocol's durable core (docs/meta-shell-protocol.md), one of each for spawn_agent, the orchestrator and the
  // goal view. Answers and progress lines are free text: scrubbed before SQLite, the ledger or the UI sees them.
  const progress = owner.add(new ProgressLog({ events: events.log, scrub: (text) => scrubber.scrubText(text) }));
  const checkpoints = new CheckpointStore(db, { ledger, scrub: (answer) => scrubber.scrubPayload({ answer }).answer });
  const contextRecorder = new ContextRecorder(db, ledger);

  const registry = new AgentRegistry({ db, ledger, bundledDir: bundledAgentsDir(), userDir: userAgentsDir(options.home) });
  // Process runs (the shell tool): the user's run as asked, an agent's inside the native sandbox.
  const nativeSandbox = createNativeSandbox({
    appHome: options.home,
    onNetworkRequest: (event) =>
      ledger.append({ type: 'exec.net_request', actor: 'host', payload: { runId: event.label ?? null, host: event.host, port: event.port, method: event.method, allowed: event.allowed, reason: event.reason } }),
  });
  const exec = new ExecService(db, ledger, {
    launcher: agentRunLauncher({ sandbox: nativeSandbox, sessions, consent, resourcesOf: (agentId) => registry.get(agentId)?.manifest.resources }),
    onError: (error) => log.error('exec:', error),
    scrubber,
  });
  const agents = owner.add(
    new AgentRuntime({
      registry,
      sessions,
      ledger,
      sandbox: () =>
        new WasmSandbox({ consent, store: new AgentStore(db), audit: (entry) => ledger.append(entry), warmProcesses: 1, shell: (request, caller) => exec.shell(request, caller), credentials: credentials.injector }),
      native: { sandbox: () => nativeSandbox, consent },
      credentials: () => credentials,
      llm: { consent, modelConfigFile: modelConfigPath(options.home), store: new AgentStore(db), audit: (entry) => ledger.append(entry) },
      // Watcher events of the session's runs reach its next agent turn (spec shell-exec-actions: steer backlog).
      takeBacklog: (sessionId) => exec.takeBacklog(sessionId).map((message) => message.text),
    }),
  );

  // spawn_agent over the runtime, raising checkpoints in the same store the goal view answers.
  const spawnAgent = new SpawnAgentService({ runtime: agents, checkpoints, audit: (entry) => ledger.append(entry), progress });
  // Goal runs over spawn_agent; checkpoints resume through the same resumer, so each resumes once whoever asks.
  const goalRuns = new Orchestrator({ spawnAgent: spawnAgent.spawn, workspaceOf: (id) => sessions.get(id).workspace, checkpoints, resumer: spawnAgent.resumer, progress, ledger });

  const execStarted = exec.start().catch((error: unknown) => log.error('exec recovery failed:', error));

  const handlers: Handlers<Contract> = {
    ...createConsentHandlers(consent, consentCards, USER),
    ...createExecHandlers(exec, sessions, nativeSandbox, USER),
    ...createAgentHandlers(agents, USER),
    ...createCredentialHandlers(() => credentials, USER),
    ...createHarnessHandlers(() => harness, USER),
    ...createGoalHandlers({ db, sessions, events: events.log, checkpoints, progress, contextRecorder, goalRuns }, USER),

    'host.info': () => ({
      version: options.version,
      home: options.home,
      pid: process.pid,
      startedAt,
      platform: process.platform,
      userHome: homedir(),
    }),

    // A name is free text the user may paste anything into, and it is stored in the sessions table as well as the
    // ledger: scrubbed before either sees it.
    'session.create': ({ workspace, name }) => sessions.create(workspace, name === undefined ? undefined : scrubber.scrubText(name), USER),
    'session.list': ({ includeClosed }) => sessions.list(includeClosed ?? false),
    'session.rename': ({ id, name }) => sessions.rename(id, scrubber.scrubText(name), USER),
    'session.close': async ({ id }) => {
      const closed = sessions.close(id, USER);
      await Promise.all([harness.stopSession(id, USER), ...terminals.list(id).map((t) => terminals.close(t.id, USER)), exec.killSessionRuns(id, USER)]);
      return closed;
    },
    'session.reopen': ({ id }) => sessions.reopen(id, USER),
    'session.changes': (_key, sink) => sessions.onDidChange((change: SessionChange) => sink.push(change)),

    'terminal.open': ({ sessionId, cols, rows }) => terminals.open(sessionId, cols, rows, USER),
    'terminal.list': ({ sessionId }) => {
      sessions.get(sessionId);
      return terminals.list(sessionId);
    },
    'terminal.input': ({ id, data }) => {
      terminals.input(id, data);
      return {};
    },
    'terminal.resize': ({ id, cols, rows }) => {
      terminals.resize(id, cols, rows);
      return {};
    },
    'terminal.close': async ({ id }) => {
      await terminals.close(id, USER);
      return {};
    },
    'terminal.output': ({ id }, sink) => terminals.attach(id, sink),

    'ledger.list': ({ sessionId, beforeSeq, limit }) => ledger.list({ sessionId, beforeSeq, limit }),
    // The ledger view's queries read the committed table; appends still queued show up with the next tail event.
    'ledger.query': (request) => ledgerQuery.page(request),
    'ledger.count': (request) => ledgerQuery.count(request),
    'ledger.facets': () => ledgerQuery.facets(),
    'ledger.entry': ({ seq }) => ledgerQuery.entry(seq),
    'ledger.verify': async () => {
      const { keychain, problem } = await keychainReady;
      await signingReady;
      ledger.flush();
      // Trust first, then checkpoints, then entries: each read sees at least what the one before vouched for.
      const ledgerId = ledger.ledgerId;
      const trust = await keychainTrust(keychain, { file: ledgerFileIdentity(databasePath(options.home)), ledgerId }, problem ?? undefined);
      // Read-only connections of its own (worker threads on a large ledger): appends go on while it runs.
      return verifyStoredLedger(databasePath(options.home), trust);
    },
    'ledger.export': (request, sink) => {
      const abort = new AbortController();
      void (async () => {
        // The end line is signed only where checkpoints are (signing started: the ledger matched its record), and only
        // if what is written out verifies against the keychain's key and record (read first, as for verify).
        await signingReady;
        const { keychain } = await keychainReady;
        const signer = ledger.signer;
        ledger.flush();
        const file = ledgerFileIdentity(databasePath(options.home));
        let signEnd;
        try {
          signEnd = signer && keychain ? { key: signer, trust: await keychainTrust(keychain, { file, ledgerId: ledger.ledgerId }) } : undefined;
        } catch (error) {
          log.error('ledger export: the keychain record could not be read, so the end line is not signed:', error);
        }
        // A read-only snapshot: the file is one consistent state of the ledger however long the export takes.
        const snapshot = openDatabaseReadOnly(databasePath(options.home));
        try {
          const summary = await exportLedger(snapshot, newExportPath(options.home, request.sessionId, new Date()), request, {
            onProgress: ({ written, total }) => sink.push({ kind: 'progress', written, total }),
            signal: abort.signal,
            ...(signEnd ? { signEnd } : {}),
          });
          if (!summary.signed) log.error(`ledger export ${summary.file}: its end line is not signed (${summary.unsignedWhy}); it verifies without --key only`);
          const { file, entries, redacted, elided, checkpoints, bytes } = summary;
          sink.push({ kind: 'done', file, entries, redacted, elided, checkpoints, bytes });
          sink.end();
        } catch (error) {
          // A LedgerExportError is a DomainError the user can act on; anything else the edge logs and calls internal.
          sink.end(error instanceof Error ? error : new Error(String(error)));
        } finally {
          snapshot.close();
        }
      })();
      return { dispose: () => abort.abort() };
    },
    'ledger.tail': ({ afterSeq }, sink) => {
      // Catch up from storage first, then follow live appends; seq order is kept because both run synchronously.
      let last = afterSeq;
      for (let batch = ledger.after(last, 1000); batch.length > 0; batch = ledger.after(last, 1000)) {
        for (const entry of batch) sink.push(entry);
        last = batch[batch.length - 1].seq;
      }
      return ledger.onDidAppend((entry: LedgerEntry) => {
        if (entry.seq > last) sink.push(entry);
      });
    },
  };
  // The contract and the handler map must name the same things; the type system checks it, this guards at runtime.
  for (const name of Object.keys(contract)) {
    if (!(name in handlers)) throw new Error(`host has no handler for ${name}`);
  }

  ledger.append({ type: 'host.start', actor: 'host', payload: { version: options.version, pid: process.pid } });
  // Agents are registered as the host starts (a new or changed manifest is one ledger entry), not when someone first
  // opens the Agents view: the ledger then says which agents this run had, before anyone connects.
  registry.refresh();
  // The keychain answers asynchronously (and may be slow or absent): the host serves meanwhile, and signing starts
  // once the ledger's key is loaded, covering at once whatever the previous run left unsigned.
  const keychainChoice = options.keychain ?? keychainChoiceFromEnv();
  const keychainReady = openHostKeychain(keychainChoice);
  // Waits for the keychain itself; without one, credential features say why they are off (no plaintext fallback).
  const credentials = owner.add(new CredentialServices({ db, ledger, keychain: keychainReady, secrets, consent, ...(options.providers ? { providers: options.providers } : {}) }));
  // Claude Code / Codex CLI sessions: launched through the credential proxy, resumable after a restart.
  const harness = new HarnessSessionService({ db, ledger, sessions, terminals, credentials, consent, aspHome: join(options.home, 'harness'), executables: executablesFromEnv(), onError: (error) => log.error('harness:', error) });
  applyProviderConfig(options.home, credentials.providers, (problem) => log.error(problem));
  const signingReady = keychainReady.then(async ({ keychain, problem }) => {
    if (!keychain) {
      if (keychainChoice !== 'off') log.error(`ledger checkpoints are not signed: ${problem}`);
      return;
    }
    try {
      ledger.flush();
      const decision = await decideSigning(keychain, databasePath(options.home), ledger.ledgerId!);
      if (!decision.sign) return log.error(decision.why);
      if (decision.notice) log.error(decision.notice);
      ledger.startSigning(decision.key, decision.record);
    } catch (error) {
      log.error('ledger checkpoints are not signed:', error);
    }
  });

  return {
    // The handler edge: domain errors get their contract code, anything else is logged and reported as INTERNAL.
    handlers: atHandlerEdge(contract, handlers, (method, error) => log.error(`${method} failed:`, error)),
    db,
    ledger,
    secrets,
    log,
    events,
    consent,
    credentials,
    checkpoints,
    progress,
    contextRecorder,
    spawnAgent,
    goalRuns,
    async dispose() {
      // First, so prompts still waiting are denied (and recorded) while the ledger is open.
      consent.dispose();
      // Running goal runs are halted (status halted in session.json), so Resume continues them after the restart.
      await goalRuns.dispose();
      await execStarted;
      // Running processes end with the host; their runs stay `running` and are recovered at the next start.
      await exec.dispose();
      await harness.dispose();
      await terminals.dispose();
      ledger.append({ type: 'host.stop', actor: 'host', payload: { pid: process.pid } });
      await signingReady;
      await ledger.close();
      owner.dispose();
      db.close();
    },
  };
}
