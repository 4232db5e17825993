import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AgentRunEvent, AgentRunInfo } from '../../src-preload/contract';
import { EVENT_SCHEMA_VERSION } from '../../src-preload/contract/agentEvents';
import { readManifest, errorsOf, formatIssue, MANIFEST_FILE } from '../node/agents/manifest';
import { AgentRegistry, bundledAgentsDir, userAgentsDir, type CatalogAgent } from '../node/agents/registry';
import { AgentRuntime } from '../node/agents/runtime/agentRuntime';
import { HostLog } from '../node/base/hostLog';
import { ConsentEngine } from '../node/consent/consentEngine';
import type { ConsentChannel } from '../node/consent/consentChannel';
import { databasePath, resolveHome } from '../node/home';
import { lockHome } from '../node/homeLock';
import { Ledger } from '../node/ledger/ledger';
import { AgentStore } from '../node/sandbox/wasm/agentStore';
import { WasmSandbox } from '../node/sandbox/wasm/wasmSandbox';
import { SessionService } from '../node/sessions/sessionService';
import { openDatabase } from '../node/store/database';
import { SecretRegistry } from '../node/vault/secretRegistry';
import { SecretScrubber } from '../node/vault/secretScrubber';
import { parseFlags, UsageError } from './args';

export const agentRunUsage = `  agent run DIR|NAME --workspace DIR --prompt TEXT [--grant CAPABILITY[:SCOPE][@DURATION]]... [--timeout SECONDS] [--home DIR]
        Run an agent headless: its events as JSON lines on stdout (event protocol 0.1). Consent comes only from the
        --grant flags (e.g. files.write:lib/**@10m, network:api.github.com, files.read@once); anything else the agent
        asks for is denied. Exit 0 success, 3 something was denied, 4 timeout or CPU budget, 5 a host runs on the
        home (run the agent from it, or use another --home), 1 error.`;

/** Exit codes of `omni agent run`. */
export const RUN_EXIT = { success: 0, error: 1, denied: 3, timeout: 4 } as const;

interface GrantFlag {
  capability: string;
  scope: string | null;
  /** Seconds, or null for once. */
  durationS: number | null;
}

/** CAPABILITY[:SCOPE][@DURATION]; an oauth capability keeps its own colon (oauth:github.repo:SCOPE). */
export function parseGrantFlag(text: string): GrantFlag {
  const at = text.lastIndexOf('@');
  const body = at >= 0 ? text.slice(0, at) : text;
  const duration = at >= 0 ? text.slice(at + 1) : '1h';
  const colonFrom = body.startsWith('oauth:') ? 'oauth:'.length : 0;
  const colon = body.indexOf(':', colonFrom);
  const capability = colon >= 0 ? body.slice(0, colon) : body;
  const scope = colon >= 0 ? body.slice(colon + 1) : null;
  if (!capability) throw new UsageError(`--grant "${text}": name a capability, e.g. files.read or network:api.github.com@10m`);
  if (scope === '') throw new UsageError(`--grant "${text}": the scope after ":" is empty; leave out the ":" to grant the whole capability`);
  let durationS: number | null;
  const match = /^(\d+)(s|m|h)?$/.exec(duration);
  if (duration === 'once') durationS = null;
  else if (match) durationS = Number(match[1]) * (match[2] === 'h' ? 3600 : match[2] === 'm' ? 60 : 1);
  else throw new UsageError(`--grant "${text}": the duration after "@" must be like 30s, 10m, 2h or once`);
  if (durationS !== null && durationS < 1) throw new UsageError(`--grant "${text}": the duration must be at least 1s`);
  return { capability, scope, durationS };
}

/** An agent folder (with manifest.toml) named on the command line, as the registry would list it. */
function agentFromFolder(folder: string): CatalogAgent {
  const report = readManifest(folder);
  if (!report.manifest || !report.sha256) {
    throw new UsageError(`${folder} is not a valid agent:\n${errorsOf(report).map(formatIssue).join('\n')}`);
  }
  return { source: 'user', folder, manifest: report.manifest, manifestSha256: report.sha256, report };
}

/** Turns a run event into the protocol's event, as the agent's stream says it (lifecycle as a state_update). */
function protocolEvent(event: AgentRunEvent, agentId: string): Record<string, unknown> | null {
  const base = { schema_version: EVENT_SCHEMA_VERSION };
  switch (event.kind) {
    case 'output':
      return { ...base, type: 'output', agent_id: agentId, chunk_id: event.cardId, content_type: event.contentType, data: event.data };
    case 'artifact':
      return { ...base, type: 'artifact', id: event.id, kind: event.artifactKind, path: event.path, preview_hint: event.previewHint };
    case 'error':
      return { ...base, type: 'error', code: event.code, message: event.message, hint: event.hint };
    case 'state_update':
      return { ...base, type: 'state_update', key: event.key, value: event.value, scope: event.scope };
    case 'state':
      return { ...base, type: 'state_update', key: 'lifecycle', value: event.state, scope: 'agent' };
    case 'ended':
    case 'denied':
      // A refusal is the ledger's consent.deny (counted in the summary), not an event of the agent's protocol.
      return null;
  }
}

/** `omni agent run …`: runs one agent to its end and returns the exit code. */
export async function agentRunCommand(args: string[]): Promise<number> {
  const positional = args.filter((arg, i) => !arg.startsWith('--') && !(i > 0 && args[i - 1].startsWith('--') && !args[i - 1].includes('=')));
  const flags = parseFlags(args.filter((arg) => !positional.includes(arg)), { workspace: 'value', prompt: 'value', grant: 'values', timeout: 'value', home: 'value' });
  if (positional.length !== 1) throw new UsageError('agent run needs one agent: a folder with a manifest.toml, or the name of an installed agent');
  const workspace = typeof flags.workspace === 'string' ? resolve(flags.workspace) : undefined;
  if (!workspace || !existsSync(workspace) || !statSync(workspace).isDirectory()) throw new UsageError('agent run needs --workspace DIR, an existing folder');
  if (typeof flags.prompt !== 'string') throw new UsageError('agent run needs --prompt TEXT');
  const grants = (Array.isArray(flags.grant) ? flags.grant : []).map(parseGrantFlag);
  const timeoutS = flags.timeout === undefined ? 120 : Number(flags.timeout);
  if (!Number.isFinite(timeoutS) || timeoutS <= 0) throw new UsageError('--timeout must be a positive number of seconds');

  const home = resolveHome(typeof flags.home === 'string' ? flags.home : undefined);
  // It writes the home's ledger as a host does, so it runs only where no host is running (HomeInUseError otherwise).
  // Should anything below throw, the process exits and its lock, whose pid is then gone, is taken over by the next.
  const homeLock = await lockHome(home);
  const db = openDatabase(databasePath(home));
  const scrubber = new SecretScrubber(new SecretRegistry());
  const log = new HostLog({ scrub: (text) => scrubber.scrubText(text), prefix: '[agent run]' });
  const ledger = new Ledger(db, { scrub: (payload) => scrubber.scrubPayload(payload), onError: (error) => log.error('ledger:', error) });
  const sessions = new SessionService(db, ledger);
  const consent = new ConsentEngine(db, ledger, { onError: (error) => log.error('consent:', error) });
  // No one to ask: every prompt is answered "deny" at once (fail closed); only the --grant flags allow anything.
  const denyAll: ConsentChannel = { prompt: async () => ({ kind: 'deny' }) };
  const channel = consent.attachChannel(denyAll);
  const registry = new AgentRegistry({ db, ledger, bundledDir: bundledAgentsDir(), userDir: userAgentsDir(home) });
  const runtime = new AgentRuntime({
    registry,
    sessions,
    ledger,
    stepDeadlineMs: timeoutS * 1000,
    sandbox: () => new WasmSandbox({ consent, store: new AgentStore(db), audit: (entry) => ledger.append(entry), warmProcesses: 0 }),
  });
  let denied = 0;
  const counting = ledger.onDidAppend((entry) => {
    if (entry.type === 'consent.deny') denied++;
  });
  try {
    const target = positional[0];
    const asFolder = resolve(target);
    let agent: CatalogAgent | undefined;
    if (existsSync(resolve(asFolder, MANIFEST_FILE))) agent = agentFromFolder(asFolder);
    else {
      registry.refresh();
      agent = registry.get(target);
      if (!agent) throw new UsageError(`"${target}" is neither an agent folder (no ${MANIFEST_FILE} there) nor an installed agent (see \`omni agent list\`)`);
    }
    const session = sessions.create(workspace, `agent run: ${agent.manifest.name}`, 'user');
    for (const grant of grants) {
      consent.grant({ agentId: agent.manifest.name, sessionId: session.id, capability: grant.capability, scope: grant.scope, durationS: grant.durationS, reason: 'omni agent run --grant' }, 'user');
    }
    const started = runtime.startAgent(session.id, agent, flags.prompt, 'user');
    const run = runtime.get(started.id);
    const ended = await new Promise<AgentRunInfo>((resolveEnd) => {
      const print = (event: AgentRunEvent): void => {
        const line = protocolEvent(event, started.agent);
        if (line) process.stdout.write(`${JSON.stringify(line)}\n`);
        if (event.kind === 'ended') resolveEnd(event.run);
      };
      for (const event of run.replay()) print(event);
      if (!run.ended) run.onDidAppend(print);
    });
    if (ended.outcome === 'timeout' || ended.outcome === 'cpu_budget') return RUN_EXIT.timeout;
    if (ended.outcome !== 'completed') {
      process.stderr.write(`omni: the agent ${ended.outcome === 'stopped' ? 'was stopped' : 'failed'}: ${ended.error?.message ?? ended.outcome}${ended.error?.hint ? ` (${ended.error.hint})` : ''}\n`);
      return RUN_EXIT.error;
    }
    if (denied > 0) {
      process.stderr.write(`omni: ${denied} use${denied === 1 ? ' was' : 's were'} denied (grant more with --grant CAPABILITY[:SCOPE][@DURATION])\n`);
      return RUN_EXIT.denied;
    }
    return RUN_EXIT.success;
  } finally {
    counting.dispose();
    runtime.dispose();
    channel.dispose();
    consent.dispose();
    await ledger.close();
    db.close();
    homeLock.release();
  }
}
