import { contract, type Contract } from '../../src-preload/contract';
import type { Handlers } from '../../src-preload/rpc';
import { composeAcp } from './acp/composeAcp';
import type { AcpProcessLauncher } from './acp/acpProcess';
import { composeChanges } from './changes/composeChanges';
import type { TurnRecorder } from './changes/turnRecorder';
import { composeAgentRegistry } from './agents/registry/composeAgentRegistry';
import { composeAgents } from './agents/runtime/composeAgents';
import { AsyncDisposableStore } from './base/asyncDisposableStore';
import { HostLog } from './base/hostLog';
import { composeConsent } from './consent/composeConsent';
import type { ConsentEngine } from './consent/consentEngine';
import { promptTimeoutFromEnv } from './consent/promptTimeoutSetting';
import { composeEventLog } from './eventlog/composeEventLog';
import type { HostEventLog } from './eventlog/hostEventLog';
import { composeExec } from './exec/composeExec';
import { composeGoal, type GoalServices } from './goal/composeGoal';
import { atHandlerEdge } from './handlerErrors';
import { composeHarness } from './harness/composeHarness';
import { databasePath } from './home';
import { lockHome } from './homeLock';
import { createHostInfoHandlers } from './hostInfoHandlers';
import { composeLedger } from './ledger/composeLedger';
import type { Ledger } from './ledger/ledger';
import { composeNativeSandbox } from './sandbox/native/composeNativeSandbox';
import { composeSessions } from './sessions/composeSessions';
import { openDatabase, type Database } from './store/database';
import { composeTerminals } from './terminals/composeTerminals';
import { composeCredentials } from './vault/composeCredentials';
import type { CredentialServices } from './vault/credentialServices';
import { keychainChoiceFromEnv, openHostKeychain, type KeychainChoice } from './vault/hostKeychain';
import type { ProviderRegistry } from './vault/providers';
import { composeWorktrees } from './worktrees/composeWorktrees';
import { SecretRegistry } from './vault/secretRegistry';
import { SecretScrubber } from './vault/secretScrubber';

export interface HostOptions {
  home: string;
  version: string;
  /** Default: OMNI_KEYCHAIN from the environment, else the OS keychain. */
  keychain?: KeychainChoice;
  /** The credential providers (tests point a provider's API at a local stand-in); default: the built-in ones. */
  providers?: ProviderRegistry;
  /** How ACP agents are started; default: in the native sandbox, the provider only through the credential proxy (composeAcp). */
  acpLauncher?: AcpProcessLauncher;
  /** How long a consent prompt on screen waits for an answer; default: OMNI_CONSENT_TIMEOUT, else 30 minutes. */
  consentPromptTimeoutMs?: number;
}

/** The host's parts that tests, the CLI and the server reach directly; the UI reaches them through `handlers`. */
export interface HostServices extends GoalServices {
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

/**
 * Composes the host's areas in the order they depend on each other, and implements the contract with their handlers.
 * They stop in the reverse order, through one store: what was composed from a part stops before that part does.
 */
async function composeHostServices(options: HostOptions): Promise<HostServices> {
  const { home, version } = options;
  const db = openDatabase(databasePath(home));
  // Secrets never reach the ledger or the log: the vault's values (and anything shaped like a token) are scrubbed.
  const secrets = new SecretRegistry();
  const scrubber = new SecretScrubber(secrets);
  const log = new HostLog({ scrub: (text) => scrubber.scrubText(text), prefix: '[host]' });
  const parts = new AsyncDisposableStore((name, error) => log.error(`stopping ${name} failed:`, error));
  parts.add('database', {
    dispose() {
      db.close();
    },
  });
  try {
    // The keychain answers asynchronously (and may be slow or absent): the host serves meanwhile.
    const keychainChoice = options.keychain ?? keychainChoiceFromEnv();
    const keychain = openHostKeychain(keychainChoice);
    const actor = USER;

    const ledger = parts.add('ledger', composeLedger({ home, version, db, keychain, keychainChoice, scrubber, log }));
    const sessions = parts.add('sessions', composeSessions({ home, db, ledger: ledger.service, scrubber, actor }));
    // Before the areas that run agents, which record each turn through it; disposed after them, so a turn that ends
    // as they stop still gets its snapshot.
    const changes = parts.add('changes', composeChanges({ home, db, ledger: ledger.service, sessions: sessions.service, scrubber, log, actor }));
    const turns: TurnRecorder = changes.service;
    const terminals = composeTerminals({ sessions: sessions.service, ledger: ledger.service, actor });
    // Disposed after the terminals: it writes their last output.
    const events = parts.add('event log', composeEventLog({ db, sessions: sessions.service, terminals: terminals.service, secrets, log }));
    parts.add('terminals', terminals);
    const consent = composeConsent({ db, ledger: ledger.service, log, actor, promptTimeoutMs: options.consentPromptTimeoutMs ?? promptTimeoutFromEnv() });
    const credentials = parts.add('credentials', composeCredentials({ home, db, ledger: ledger.service, keychain, secrets, consent: consent.service, providers: options.providers, log, actor }));
    const nativeSandbox = parts.add('native sandbox', composeNativeSandbox({ home, ledger: ledger.service }));
    const registry = parts.add('agent registry', composeAgentRegistry({ home, db, ledger: ledger.service }));
    const exec = parts.add('exec', composeExec({ db, ledger: ledger.service, sessions: sessions.service, consent: consent.service, sandbox: nativeSandbox.service, registry: registry.service, scrubber, log, actor, turns }));
    const agents = parts.add('agents', composeAgents({ home, db, ledger: ledger.service, sessions: sessions.service, consent: consent.service, registry: registry.service, exec: exec.service, nativeSandbox: nativeSandbox.service, credentials: credentials.service, actor, turns, events: events.service.log, scrubber }));
    const goal = parts.add('goal', composeGoal({ db, ledger: ledger.service, sessions: sessions.service, events: events.service.log, agents: agents.service, scrubber, actor, turns }));
    const harness = parts.add('harness', composeHarness({ home, db, ledger: ledger.service, sessions: sessions.service, terminals: terminals.service, credentials: credentials.service, consent: consent.service, turns, log, actor }));
    const acp = parts.add('acp', composeAcp({ home, db, events: events.service.log, ledger: ledger.service, sessions: sessions.service, consent: consent.service, cards: consent.cards, exec: exec.service, sandbox: nativeSandbox.service, credentials: credentials.service, launcher: options.acpLauncher, log, actor, turns }));
    const worktrees = parts.add('worktrees', composeWorktrees({ sessions: sessions.service, ledger: ledger.service, scrubber, actor }));
    // Added last, so disposed first: prompts still waiting are denied (and recorded) while the ledger is open, and no
    // run stopping after it waits on an answer.
    parts.add('consent', consent);

    const handlers: Handlers<Contract> = {
      ...createHostInfoHandlers({ home, version }),
      ...sessions.handlers,
      ...terminals.handlers,
      ...ledger.handlers,
      ...consent.handlers,
      ...credentials.handlers,
      ...exec.handlers,
      ...agents.handlers,
      ...goal.handlers,
      ...harness.handlers,
      ...acp.handlers,
      ...changes.handlers,
      ...worktrees.handlers,
    };
    // The contract and the handler map must name the same things; the type system checks it, this guards at runtime.
    for (const name of Object.keys(contract)) {
      if (!(name in handlers)) throw new Error(`host has no handler for ${name}`);
    }

    return {
      // The handler edge: domain errors get their contract code, anything else is logged and reported as INTERNAL.
      handlers: atHandlerEdge(contract, handlers, (method, error) => log.error(`${method} failed:`, error)),
      db,
      ledger: ledger.service,
      secrets,
      log,
      events: events.service,
      consent: consent.service,
      credentials: credentials.service,
      ...goal.service,
      dispose: () => parts.dispose(),
    };
  } catch (error) {
    await parts.dispose();
    throw error;
  }
}
