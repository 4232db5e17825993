// What a ledger entry says happened, as one plain sentence built from its type and payload: "workspace-summary was
// allowed to read all files in /ws for 10 minutes", "You revoked …". Pure, so every type the host writes is tested.

/** The parts of an entry a sentence is made of (a LedgerEntry has them all). */
export interface SentenceEntry {
  type: string;
  actor: string;
  sessionId: string | null;
  payload: Record<string, unknown>;
}

/** The workspace folder of a session, when the view knows it (consent scopes are relative to it). */
export type WorkspaceOf = (sessionId: string | null) => string | null;

type Words = (entry: SentenceEntry, who: string, p: Payload, workspace: string | null) => string;

/** Reads payload fields defensively: a payload is whatever the host recorded, older entries included. */
class Payload {
  constructor(private readonly value: Record<string, unknown>) {}

  text(key: string, fallback = '?'): string {
    const v = this.value[key];
    if (typeof v === 'string' && v !== '') return v;
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
    return fallback;
  }

  has(key: string): boolean {
    const v = this.value[key];
    return v !== undefined && v !== null && v !== '';
  }

  number(key: string): number | null {
    const v = this.value[key];
    return typeof v === 'number' && Number.isFinite(v) ? v : null;
  }

  list(key: string): unknown[] {
    const v = this.value[key];
    return Array.isArray(v) ? v : [];
  }

  flag(key: string): boolean {
    return this.value[key] === true;
  }
}

/** "You" for the person at the UI, "The host" for the host itself, the agent's name for `agent:<name>`. */
export function actorName(actor: string): string {
  if (actor === 'user') return 'You';
  if (actor === 'host') return 'The host';
  if (actor.startsWith('agent:')) return actor.slice('agent:'.length) || 'an agent';
  return actor || 'Someone';
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** "10 minutes", "1 hour 30 minutes", "45 seconds": how long a grant lasts, as said aloud. */
export function durationWords(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return plural(s, 'second');
  if (s < 3600) return plural(Math.round(s / 60), 'minute');
  const hours = Math.floor(s / 3600);
  const minutes = Math.round((s % 3600) / 60);
  if (hours >= 24 && minutes === 0 && hours % 24 === 0) return plural(hours / 24, 'day');
  return minutes === 0 ? plural(hours, 'hour') : `${plural(hours, 'hour')} ${plural(minutes, 'minute')}`;
}

function joinPath(folder: string, relative: string): string {
  if (relative.startsWith('/')) return relative;
  return `${folder.replace(/\/+$/, '')}/${relative}`;
}

/** What a capability on a scope lets an agent do, as a verb phrase: "read all files in /ws", "run `npm test`". */
export function capabilityWords(capability: string, scope: string | null, action: string | null, workspace: string | null): string {
  const where = workspace ?? 'the workspace';
  if (capability === 'files.read' || capability === 'files.write') {
    const verb = capability === 'files.read' ? 'read' : 'write';
    if (scope === null || scope === '**' || scope === '**/*') return `${verb} all files in ${where}`;
    const under = /^(.*[^*/])\/\*\*$/.exec(scope);
    if (under && !/[*?[\]{}]/.test(under[1])) return `${verb} all files in ${joinPath(where, under[1])}/`;
    if (!/[*?[\]{}]/.test(scope)) return `${verb} ${joinPath(where, scope)}`;
    return `${verb} files matching ${scope} in ${where}`;
  }
  if (capability === 'process.exec') return action ? `run ${action}` : scope ? `run commands matching ${scope}` : 'run commands';
  if (capability === 'network') return scope ? `reach ${scope}` : action ? `reach ${action}` : 'reach any site';
  if (capability === 'memory') return 'use its own saved memory';
  if (capability.startsWith('oauth:')) return `use your ${capability.slice('oauth:'.length)} connection`;
  return scope ? `use ${capability} on ${scope}` : `use ${capability}`;
}

/** The consent phrase of a grant-like payload: who, and what it may do. */
function grantOf(p: Payload, workspace: string | null): { agent: string; what: string } {
  const action = p.has('action') ? p.text('action') : p.has('target') ? p.text('target') : null;
  return { agent: p.text('agentId', 'an agent'), what: capabilityWords(p.text('capability', 'something'), p.has('scope') ? p.text('scope') : null, action, workspace) };
}

const quoted = (text: string): string => `"${text.length > 80 ? `${text.slice(0, 79)}…` : text}"`;
const short = (id: string): string => (id.length > 12 ? id.slice(0, 10) : id);
const because = (p: Payload, key = 'reason'): string => (p.has(key) ? `: ${p.text(key)}` : '');

const SENTENCES: Record<string, Words> = {
  // Consent: asking, allowing, using, ending.
  'consent.request': (_e, who, p, ws) => `${who} asked to ${grantOf(p, ws).what}${because(p)}`,
  'consent.grant': (_e, who, p, ws) => {
    const { agent, what } = grantOf(p, ws);
    const how = p.flag('once') ? 'once' : p.number('durationS') !== null ? `for ${durationWords(p.number('durationS')!)}` : '';
    const by = who === 'You' ? '' : ` (by ${who})`;
    return `${agent} was allowed to ${what}${how ? ` ${how}` : ''}${by}`;
  },
  'consent.deny': (_e, who, p, ws) => `${who} was not allowed to ${grantOf(p, ws).what}${because(p)}`,
  'consent.use': (_e, who, p, ws) => `${who} used its one-time permission to ${grantOf(p, ws).what}`,
  'consent.revoke': (_e, who, p, ws) => {
    const { agent, what } = grantOf(p, ws);
    return `${who} revoked ${agent}'s permission to ${what}`;
  },
  'consent.expire': (_e, _who, p, ws) => {
    const { agent, what } = grantOf(p, ws);
    const after = p.number('durationS');
    return `${agent}'s permission to ${what} ended${after !== null ? ` after ${durationWords(after)}` : ''}`;
  },
  'consent.rule': (_e, who, p) => {
    if (p.flag('removed')) return `${who} removed the standing rule ${p.text('ruleId')}`;
    const agent = p.has('agentId') ? p.text('agentId') : 'every agent';
    const effect = p.text('effect') === 'deny' ? 'always deny' : 'always allow';
    return `${who} set a standing rule: ${effect} ${agent} to ${capabilityWords(p.text('capability', 'something'), p.has('scope') ? p.text('scope') : null, null, null)}`;
  },
  // Sessions, folders, terminals.
  'session.create': (_e, who, p) => `${who} created session ${quoted(p.text('name'))} in ${p.text('workspace')}`,
  'session.rename': (_e, who, p) => `${who} renamed session ${quoted(p.text('from'))} to ${quoted(p.text('to'))}`,
  'session.close': (_e, who) => `${who} closed the session`,
  'session.reopen': (_e, who) => `${who} reopened the session`,
  'folder.create': (_e, who, p) => `${who} created the folder ${p.text('path')}`,
  'terminal.open': (_e, who, p) => `${who} opened a terminal (${p.text('shell')}) in ${p.text('cwd')}`,
  'terminal.close': (_e, who) => `${who} closed a terminal`,
  'terminal.exit': (_e, _who, p) => `A terminal's shell exited${p.has('exitCode') ? ` with code ${p.text('exitCode')}` : p.has('signal') ? ` on signal ${p.text('signal')}` : ''}`,
  // Agents.
  'agent.register': (_e, _who, p) => `Agent ${p.text('name')} ${p.text('version', '')} was registered (${p.text('sandbox', 'sandbox')}, from ${p.text('source', 'somewhere')})`.replace('  ', ' '),
  'agent.start': (_e, who, p) => `${who} started agent ${p.text('agent')}`,
  'agent.stop': (_e, who) => `${who} stopped an agent run`,
  'agent.suspend': (_e, who) => `${who} paused an agent run`,
  'agent.resume': (_e, who) => `${who} resumed an agent run`,
  'agent.end': (_e, _who, p) => `Agent ${p.text('agent')} ended: ${p.text('outcome')}${p.has('error') ? ` (${p.text('error')})` : ''}`,
  'agent.file_write': (_e, who, p) => `${who} ${p.flag('created') ? 'created' : 'wrote'} ${p.text('path')} (${plural(p.number('bytes') ?? 0, 'byte')})`,
  'agent.net_request': (_e, who, p) => `${who} sent ${p.text('method')} ${p.text('url')} (status ${p.text('status')})`,
  'agent.model_usage': (_e, _who, p) => `A model call to ${p.text('model')} used ${plural(p.number('inputTokens') ?? 0, 'input token')} and ${plural(p.number('outputTokens') ?? 0, 'output token')}`,
  'agent.native_launch': (_e, _who, p) => `The host launched native agent ${p.text('agent')} in its sandbox`,
  'agent.writes_committed': (_e, _who, p) => `Agent ${p.text('agent')}'s changes to ${plural(p.list('paths').length, 'file')} were written to the workspace${p.list('conflicts').length ? ` (${plural(p.list('conflicts').length, 'conflict')})` : ''}`,
  'agent.writes_dropped': (_e, _who, p) => `Agent ${p.text('agent')}'s changes to ${plural(p.list('paths').length, 'file')} were dropped`,
  // Commands.
  'exec.spawn': (_e, who, p) => `${who} ran ${p.list('argv').map(String).join(' ') || 'a command'} in ${p.text('cwd')}`,
  'exec.end': (_e, _who, p) => `A command ${p.text('status')}${p.has('exit_code') ? ` with exit code ${p.text('exit_code')}` : ''}${because(p)}`,
  'exec.kill': (_e, who) => `${who} stopped a command`,
  'exec.net_request': (_e, _who, p) => `A sandboxed process ${p.flag('allowed') ? 'reached' : 'was blocked from reaching'} ${p.text('host')}:${p.text('port')}${because(p)}`,
  // Goal runs and checkpoints.
  'goal.start': (_e, who) => `${who} started the goal run`,
  'goal.halt': (_e, who) => `${who} halted the goal run`,
  'goal.resume': (_e, who) => `${who} resumed the goal run`,
  'goal.plan': (_e, _who, p) => `The ${p.text('planner', '')} planner planned ${plural(p.list('tasks').length, 'task')}`.replace('The  ', 'The '),
  'goal.task_commit': (_e, _who, p) => `Task ${p.text('taskId')} was committed as ${short(p.text('commit'))}`,
  'goal.rollback': (_e, who, p) => `${who} rolled back task ${p.text('taskId')}`,
  'goal.dirty_tree': (_e, _who, p) => (p.text('answer') === 'stash' ? 'Your uncommitted changes were stashed before the goal run' : 'Your uncommitted changes were committed before the goal run'),
  'checkpoint.raised': (_e, who, p) => `${who} asked you: ${quoted(p.text('message'))}`,
  'checkpoint.answer': (_e, who, p) => `${who} answered a checkpoint: ${quoted(p.text('answer'))}`,
  'checkpoint.resumed': (_e, _who, p) => `The agent resumed after its checkpoint${p.flag('ok') ? '' : ' and failed'}`,
  'host.spawn_start': (_e, who, p) => `${who} started agent ${p.text('agent')} for the goal run`,
  'host.spawn_end': (_e, _who, p) => `Agent ${p.text('agent')} finished: ${p.text('status')}${because(p)}`,
  'meta.context_recorded': (_e, _who, p) => `The goal (${p.text('path', 'context.md')}) was recorded as it is`,
  'meta.context_edit': (_e, who, p) => `${who} edited the goal (${p.text('path', 'context.md')})`,
  // Changes and worktrees.
  'changes.accept': (_e, who, p) => `${who} accepted ${p.has('path') ? `the change to ${p.text('path')}` : 'a change'}`,
  'changes.reject': (_e, who, p) => `${who} rejected ${p.has('path') ? `the change to ${p.text('path')}` : 'a change'}`,
  'changes.restore': (_e, who, p) => `${who} restored ${plural(p.number('files') ?? 0, 'file')} to an earlier snapshot`,
  'worktree.commit': (_e, who, p) => `${who} committed ${short(p.text('commit'))} on branch ${p.text('branch')}`,
  'worktree.merge': (_e, who, p) =>
    p.list('conflicts').length > 0
      ? `${who} tried to merge branch ${p.text('branch')} into ${p.text('base')}: ${plural(p.list('conflicts').length, 'conflict')}`
      : `${who} merged branch ${p.text('branch')} into ${p.text('base')}`,
  'worktree.discard': (_e, who, p) => `${who} discarded the worktree of branch ${p.text('branch')}`,
  // Connections (credentials never appear; only which connection).
  'credential.connect': (_e, who, p) => `${who} connected ${p.text('provider')}`,
  'credential.refresh': (_e, _who, p) => `The ${p.text('provider')} connection's access was renewed`,
  'credential.rotate': (_e, who, p) => `${who} replaced the ${p.text('provider')} key`,
  'credential.revoke': (_e, who, p) => `${who} disconnected ${p.text('provider')}`,
  'credential.test': (_e, who, p) => `${who} tested the ${p.text('provider')} connection: ${p.text('outcome')}`,
  'credential.fail': (_e, _who, p) => `The ${p.text('provider')} connection failed${p.has('step') ? ` at ${p.text('step')}` : ''}${p.has('message') ? `: ${p.text('message')}` : because(p)}`,
  'credential.client': (_e, who, p) => `${who} ${p.text('action') === 'remove' ? 'removed' : p.text('action') === 'edit' ? 'changed' : 'added'} the OAuth client for ${p.text('name', p.text('provider'))}`,
  'credential.handle_issue': (_e, who, p) => `${who} was given access to the ${p.text('provider')} connection${p.flag('forOneRun') ? ' for one run' : ''}`,
  'credential.handle_revoke': (_e, _who, p) => `${p.text('agentId', 'An agent')}'s access to a connection ended${because(p)}`,
  'credential.use': (_e, who, p) => `${who} called ${p.text('method')} ${p.text('host')}${p.text('path', '')} through a connection (status ${p.text('status')})`,
  'credential.proxy_request': (_e, who, p) => `${who} called ${p.text('method')} ${p.text('host')}${p.text('path', '')} through the proxy: ${p.text('outcome')}`,
  // Coding agents (ACP) and CLI sessions.
  'acp.start': (_e, who, p) => `${who} started a conversation with ${p.text('agentId')}`,
  'acp.resume': (_e, who, p) => `${who} resumed a conversation with ${p.text('agentId')}`,
  'acp.prompt': (_e, who, p) => `${who} sent a message (${plural(p.number('chars') ?? 0, 'character')})`,
  'acp.cancel': (_e, who) => `${who} cancelled the agent's turn`,
  'acp.stop': (_e, who) => `${who} stopped a conversation`,
  'acp.permission': (_e, who, p) => `${who} asked to ${p.has('title') ? quoted(p.text('title')) : p.text('capability')}: ${p.text('answer')}`,
  'acp.fs.write': (_e, who, p) => `${who} wrote ${p.text('path')} (${plural(p.number('bytes') ?? 0, 'byte')})`,
  'harness.launch': (_e, who, p) => `${who} ${p.flag('resumed') ? 'resumed' : 'started'} a ${p.text('provider')} CLI session in ${p.text('cwd')}`,
  'harness.end': (_e, _who, p) => `A CLI session ended: ${p.text('status')}${p.has('exitCode') ? ` (exit code ${p.text('exitCode')})` : ''}`,
  'harness.continuation': (_e, _who, p) => `A ${p.text('provider')} CLI session can be resumed later`,
  'harness.key_changed': () => 'A CLI session reported a different resume key than expected',
  // The host itself.
  'host.start': (_e, _who, p) => `The host started${p.has('version') ? ` (version ${p.text('version')})` : ''}`,
  'host.stop': () => 'The host stopped',
};

/** The sentence for a type no rule knows (a newer host's, a test's): who, and the type in words. */
function fallback(entry: SentenceEntry, who: string): string {
  return `${who} recorded ${entry.type.replace(/[._]/g, ' ')}`;
}

/** Whether the ledger view has its own words for this type (the tests check every type the host writes has). */
export function hasSentenceFor(type: string): boolean {
  return Object.prototype.hasOwnProperty.call(SENTENCES, type);
}

/** One plain sentence for the entry, never throwing whatever the payload holds. */
export function ledgerSentence(entry: SentenceEntry, workspaceOf: WorkspaceOf = () => null): string {
  const who = actorName(entry.actor);
  const words = hasSentenceFor(entry.type) ? SENTENCES[entry.type] : undefined;
  const payload = entry.payload !== null && typeof entry.payload === 'object' ? entry.payload : {};
  if (!words) return fallback(entry, who);
  try {
    return words(entry, who, new Payload(payload), workspaceOf(entry.sessionId));
  } catch {
    return fallback(entry, who);
  }
}
