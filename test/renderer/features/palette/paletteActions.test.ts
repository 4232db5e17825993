import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AgentInfo, Session } from '../../../../src-preload/contract';
import { paletteActions } from '../../../../src-renderer/app/paletteActions';
import type { OmniClient } from '../../../../src-renderer/bridge/connectionStore';
import { availabilityOf, type PaletteContext } from '../../../../src-renderer/features/palette/paletteAction';
import { shortcuts } from '../../../../src-renderer/features/status/ShortcutHelp';

const client = {} as OmniClient;
const session = (status: Session['status']): Session => ({ id: 'ses_1', name: 'One', workspace: '/w/one', status, createdAt: 1, updatedAt: 1 });
const agent = (name: string, internal = false): AgentInfo => ({
  name,
  version: '1.0.0',
  sandbox: 'wasm',
  capabilities: ['files.read'],
  oauthScopes: [],
  uiHints: [],
  cpuMillicores: null,
  memBytes: null,
  source: 'bundled',
  folder: `/agents/${name}`,
  manifestSha256: 'x',
  warnings: [],
  description: `${name} does things`,
  examplePrompt: null,
  internal,
});

const actions = paletteActions([agent('workspace-summary'), agent('executor', true)]);
const byId = (id: string) => {
  const found = actions.find((a) => a.id === id);
  assert.ok(found, `the registry has ${id}`);
  return found;
};
const why = (id: string, context: PaletteContext): string => {
  const availability = availabilityOf(byId(id), context);
  return availability.enabled ? 'enabled' : availability.reason;
};

test('the registry offers every action of the issue, each once', () => {
  const ids = actions.map((a) => a.id);
  assert.equal(new Set(ids).size, ids.length, 'ids are unique');
  for (const id of ['session.new', 'terminal.new', 'agent.run', 'view.ledger', 'ledger.verify', 'ledger.export', 'view.connections', 'goal.toggle', 'changes.toggle']) byId(id);
});

test('each launcher agent gets a "Run agent" entry; internal agents do not', () => {
  assert.equal(byId('agent.run.workspace-summary').title, 'Run agent: workspace-summary');
  assert.equal(byId('agent.run.workspace-summary').keywords, 'workspace-summary does things');
  assert.ok(!actions.some((a) => a.id === 'agent.run.executor'));
  assert.ok(!paletteActions(null).some((a) => a.id.startsWith('agent.run.')), 'no entries before the list has loaded');
});

test('actions that reach the host are disabled without it, with the reason', () => {
  const noHost: PaletteContext = { client: null, session: session('open') };
  for (const id of ['session.new', 'terminal.new', 'agent.run', 'agent.run.workspace-summary', 'ledger.verify', 'ledger.export']) assert.equal(why(id, noHost), 'The host is not connected', id);
  // Views and panels are the page's own: they work while the host is away.
  for (const id of ['view.ledger', 'view.connections', 'view.agents', 'view.session', 'goal.toggle', 'changes.toggle']) assert.equal(why(id, noHost), 'enabled', id);
});

test('session actions need a selected session; starting things needs an open one', () => {
  const none: PaletteContext = { client, session: null };
  for (const id of ['terminal.new', 'agent.run', 'goal.toggle', 'changes.toggle']) assert.equal(why(id, none), 'Select a session first', id);
  const closed: PaletteContext = { client, session: session('closed') };
  assert.equal(why('terminal.new', closed), 'The session is closed: reopen it first');
  assert.equal(why('agent.run.workspace-summary', closed), 'The session is closed: reopen it first');
  // A closed session's goal and changes can still be looked at.
  assert.equal(why('goal.toggle', closed), 'enabled');
  assert.equal(why('changes.toggle', closed), 'enabled');
  const open: PaletteContext = { client, session: session('open') };
  for (const action of actions) assert.equal(why(action.id, open), 'enabled', action.id);
});

test('the host is named before the session when both are missing', () => {
  assert.equal(why('terminal.new', { client: null, session: null }), 'The host is not connected');
});

test('a shortcut shown on an action is one the status bar lists too (the palette and the help agree)', () => {
  const listed = shortcuts.map((s) => s.keys);
  const shown = actions.filter((a) => a.shortcut).map((a) => a.shortcut!);
  assert.deepEqual(shown.sort(), ['Ctrl+Shift+D', 'Ctrl+Shift+G', 'Ctrl+Shift+L', 'Ctrl+Shift+T']);
  for (const keys of shown) assert.ok(listed.includes(keys), `${keys} is in the status bar's list`);
});
