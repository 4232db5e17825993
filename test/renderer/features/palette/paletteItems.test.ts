import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Session } from '../../../../src-preload/contract';
import type { OmniClient } from '../../../../src-renderer/bridge/connectionStore';
import type { PaletteAction, PaletteContext } from '../../../../src-renderer/features/palette/paletteAction';
import { displayFolder, paletteItems, parseQuery, type PaletteItem } from '../../../../src-renderer/features/palette/paletteItems';
import { paletteOpeningFor } from '../../../../src-renderer/features/palette/paletteKeys';

const client = {} as OmniClient;
const session = (id: string, name: string, workspace: string, status: Session['status'] = 'open'): Session => ({ id, name, workspace, status, createdAt: 1, updatedAt: 1 });
const action = (id: string, title: string, needs: PaletteAction['needs'] = [], keywords?: string): PaletteAction => ({ id, title, needs, keywords, run: () => undefined });

const alpha = session('ses_alpha', 'Alpha', '/home/ada/code/alpha');
const beta = session('ses_beta', 'Beta', '/home/ada/code/beta');
const gamma = session('ses_gamma', 'Gamma', '/srv/gamma', 'closed');
const actions = [action('terminal.new', 'New terminal', ['host', 'openSession'], 'shell'), action('view.ledger', 'Open the ledger'), action('ledger.verify', 'Verify the ledger', ['host'])];
const connected: PaletteContext = { client, session: alpha };

const labels = (items: PaletteItem[]): string[] => items.map((item) => (item.kind === 'session' ? `session:${item.session.name}` : `command:${item.action.id}`));
const list = (query: string, context: PaletteContext = connected, includeClosed = false) =>
  paletteItems({ query, actions, sessions: [alpha, beta, gamma], selectedId: context.session?.id ?? null, includeClosed, userHome: '/home/ada', context });

test('the three keys open the palette: Ctrl+K as the switcher, Ctrl+Shift+P and F1 with commands only', () => {
  const key = (code: string, key: string, mods: Partial<Record<'ctrlKey' | 'shiftKey' | 'altKey' | 'metaKey', boolean>> = {}) =>
    paletteOpeningFor({ code, key, ctrlKey: false, shiftKey: false, altKey: false, metaKey: false, ...mods });
  assert.equal(key('KeyK', 'k', { ctrlKey: true }), '');
  assert.equal(key('KeyK', 'k', { metaKey: true }), '', 'Cmd+K on a Mac');
  assert.equal(key('KeyP', 'P', { ctrlKey: true, shiftKey: true }), '>');
  assert.equal(key('F1', 'F1'), '>');
  assert.equal(key('KeyK', 'k'), null, 'a plain k is typed');
  assert.equal(key('KeyP', 'p', { ctrlKey: true }), null, 'Ctrl+P without Shift is not ours');
  assert.equal(key('KeyK', 'k', { ctrlKey: true, altKey: true }), null, 'AltGr (Ctrl+Alt) types characters');
  assert.equal(key('KeyK', 'K', { ctrlKey: true, shiftKey: true }), null);
  assert.equal(key('F1', 'F1', { shiftKey: true }), null);
});

test('">" first means commands only; the rest is the search', () => {
  assert.deepEqual(parseQuery('> new term'), { commandsOnly: true, text: 'new term' });
  assert.deepEqual(parseQuery('  >'), { commandsOnly: true, text: '' });
  assert.deepEqual(parseQuery('beta '), { commandsOnly: false, text: 'beta' });
});

test('nothing typed: the other open sessions first, the shown one after them, then runnable commands, then the rest', () => {
  assert.deepEqual(labels(list('')), ['session:Beta', 'session:Alpha', 'command:terminal.new', 'command:view.ledger', 'command:ledger.verify']);
  // Without the host, what needs it goes last, still listed (with its reason).
  assert.deepEqual(labels(list('', { client: null, session: alpha })), ['session:Beta', 'session:Alpha', 'command:view.ledger', 'command:terminal.new', 'command:ledger.verify']);
  const current = list('').find((item) => item.kind === 'session' && item.current);
  assert.equal(current?.kind === 'session' && current.session.id, 'ses_alpha');
});

test('closed sessions are listed only when the sidebar shows them', () => {
  assert.ok(!labels(list('')).includes('session:Gamma'));
  assert.ok(labels(list('', connected, true)).includes('session:Gamma'));
});

test('with ">" only commands are listed', () => {
  assert.deepEqual(labels(list('>')), ['command:terminal.new', 'command:view.ledger', 'command:ledger.verify']);
  assert.deepEqual(labels(list('>ledger')), ['command:view.ledger', 'command:ledger.verify']);
});

test('a query lists what matches, best first, with the matched letters', () => {
  const items = list('new term');
  assert.equal(items[0].kind === 'command' && items[0].action.id, 'terminal.new');
  assert.deepEqual(items[0].positions, [0, 1, 2, 4, 5, 6, 7]);
  assert.deepEqual(labels(list('bet')), ['session:Beta']);
  assert.deepEqual(labels(list('zzz')), []);
});

test('a session is found by its folder too (shown under ~), below one found by its name', () => {
  assert.equal(displayFolder('/home/ada/code/beta', '/home/ada'), '~/code/beta');
  assert.equal(displayFolder('/home/adam/x', '/home/ada'), '/home/adam/x', 'only the home folder itself, not a sibling with the same prefix');
  assert.equal(displayFolder('/home/ada', '/home/ada/'), '~');
  const byFolder = list('code/beta');
  assert.equal(byFolder[0].kind, 'session');
  assert.ok(byFolder[0].kind === 'session' && byFolder[0].session.id === 'ses_beta' && byFolder[0].folderPositions.length === 9 && byFolder[0].positions.length === 0);
  const named = paletteItems({ query: 'beta', actions: [], sessions: [session('ses_x', 'Other', '/w/beta'), beta], selectedId: null, includeClosed: false, userHome: null, context: connected });
  assert.deepEqual(labels(named), ['session:Beta', 'session:Other']);
});

test('a command is found by a keyword, without highlighting letters of its title', () => {
  const items = list('shell');
  assert.equal(items[0].kind === 'command' && items[0].action.id, 'terminal.new');
  assert.deepEqual(items[0].positions, []);
});
