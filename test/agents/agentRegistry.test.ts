import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { AgentRegistry, discoverAgents, buildCatalog, userAgentsDir } from '../../src-main/node/agents/registry';
import { Ledger } from '../../src-main/node/ledger/ledger';
import { openDatabase } from '../../src-main/node/store/database';
import { tempDir } from '../helpers';
import { manifestText, writeAgent } from './agentFolders';

/** A home with a database and ledger on disk, an assets/agents folder and <home>/agents. */
function setup(t: { after: (fn: () => void) => void }) {
  const dir = tempDir('registry');
  t.after(dir.cleanup);
  const home = join(dir.path, 'home');
  const bundledDir = join(dir.path, 'assets', 'agents');
  const userDir = userAgentsDir(home);
  mkdirSync(join(home, 'memory'), { recursive: true });
  const dbFile = join(home, 'memory', 'sessions.db');
  let open: { db: ReturnType<typeof openDatabase>; ledger: Ledger } | null = null;
  /** Opens (or reopens, as a restarted host would) the database, ledger and a new registry. */
  const start = () => {
    stop();
    const db = openDatabase(dbFile);
    const ledger = new Ledger(db);
    open = { db, ledger };
    return { db, ledger, registry: new AgentRegistry({ db, ledger, bundledDir, userDir }) };
  };
  const stop = () => {
    if (!open) return;
    open.ledger.dispose();
    open.db.close();
    open = null;
  };
  t.after(stop);
  const registrations = () => {
    open!.ledger.flush();
    return open!.ledger.list({ limit: 1000 }).filter((entry) => entry.type === 'agent.register').reverse();
  };
  return { bundledDir, userDir, start, registrations };
}

const named = (name: string, overrides: Record<string, string | null> = {}) => manifestText({ name: JSON.stringify(name), ...overrides });

test('discovery finds bundled and user agents, keeps invalid ones with their errors, and skips dot-folders and files', (t) => {
  const { bundledDir, userDir } = setup(t);
  writeAgent(bundledDir, 'search', named('Search'));
  writeAgent(userDir, 'mine', named('Mine'));
  writeAgent(userDir, 'broken', named('Broken', { 'resources.mem': '"lots"' }));
  mkdirSync(join(userDir, 'empty'));
  mkdirSync(join(userDir, '.git'));
  writeFileSync(join(userDir, 'notes.txt'), 'not an agent');
  const catalog = buildCatalog(discoverAgents([{ source: 'bundled', dir: bundledDir }, { source: 'user', dir: userDir }]));
  assert.deepEqual(
    catalog.agents.map((a) => [a.manifest.name, a.source]),
    [
      ['Mine', 'user'],
      ['Search', 'bundled'],
    ],
  );
  assert.deepEqual(
    catalog.invalid.map((found) => [found.folder, found.report.issues[0].key, found.report.issues[0].code]),
    [
      [join(userDir, 'broken'), 'resources.mem', 'invalid_value'],
      [join(userDir, 'empty'), null, 'file_unreadable'],
    ],
  );
  assert.deepEqual(catalog.warnings, []);
});

test('a missing bundled folder (or user folder) simply has no agents', (t) => {
  const { bundledDir, userDir } = setup(t);
  const catalog = buildCatalog(discoverAgents([{ source: 'bundled', dir: bundledDir }, { source: 'user', dir: userDir }]));
  assert.deepEqual(catalog, { agents: [], invalid: [], shadowed: [], warnings: [] });
});

test('a user agent shadows the bundled one of the same name (any case), with a warning; same-source duplicates warn too', (t) => {
  const { bundledDir, userDir, start } = setup(t);
  const bundled = writeAgent(bundledDir, 'search', named('Search'));
  const mine = writeAgent(userDir, 'my-search', named('search', { version: '"2.0.0"' }));
  const first = writeAgent(userDir, 'a-tool', named('Tool'));
  const second = writeAgent(userDir, 'b-tool', named('Tool'));
  const { registry } = start();
  const catalog = registry.refresh();
  assert.deepEqual(
    catalog.agents.map((a) => [a.manifest.name, a.folder]),
    [
      ['search', mine],
      ['Tool', first],
    ],
  );
  assert.equal(registry.get('SEARCH')?.manifest.version, '2.0.0');
  assert.deepEqual(
    catalog.shadowed.map((s) => [s.agent.folder, s.by.folder]),
    [
      [second, first],
      [bundled, mine],
    ],
  );
  assert.equal(catalog.warnings.length, 2);
  assert.match(catalog.warnings[0], /two user agents are named "Tool": .*a-tool is used, .*b-tool is ignored \(rename one of them\)/);
  assert.match(catalog.warnings[1], /the user agent "search" \(.*my-search\) shadows the bundled one \(.*search\)/);
});

test('registration records agent.register with name, version, sandbox, capabilities, source, folder and manifest SHA-256', (t) => {
  const { bundledDir, userDir, start, registrations } = setup(t);
  const search = writeAgent(bundledDir, 'search', named('Search', { capabilities: '["files.read"]' }));
  writeAgent(userDir, 'broken', named('Broken', { sandbox: '"vm"' }));
  const { registry } = start();
  registry.refresh();
  const entries = registrations();
  assert.equal(entries.length, 1, 'only valid agents are registered');
  const [entry] = entries;
  assert.equal(entry.actor, 'host');
  assert.deepEqual(entry.payload, {
    name: 'Search',
    version: '0.1.0',
    sandbox: 'wasm',
    capabilities: ['files.read'],
    oauthScopes: [],
    source: 'bundled',
    folder: search,
    manifestSha256: createHash('sha256').update(readFileSync(join(search, 'manifest.toml'))).digest('hex'),
  });
});

test('restarts do not repeat registrations; an edited manifest or a new shadowing user agent is registered again', (t) => {
  const { bundledDir, userDir, start, registrations } = setup(t);
  const search = writeAgent(bundledDir, 'search', named('Search'));
  writeAgent(bundledDir, 'other', named('Other'));
  start().registry.refresh();
  assert.equal(registrations().length, 2);

  // A restart (new database handle, ledger and registry) with nothing changed adds nothing.
  start().registry.refresh();
  assert.equal(registrations().length, 2);
  // Neither does a second refresh in the same run.
  const { registry } = start();
  registry.refresh();
  registry.refresh();
  assert.equal(registrations().length, 2);

  // Editing one manifest (even only a comment: the hash covers the bytes) registers that agent again.
  writeFileSync(join(search, 'manifest.toml'), named('Search', { version: '"0.2.0"' }));
  start().registry.refresh();
  let entries = registrations();
  assert.equal(entries.length, 3);
  assert.equal(entries[2].payload.name, 'Search');
  assert.equal(entries[2].payload.version, '0.2.0');
  assert.notEqual(entries[2].payload.manifestSha256, entries.find((e) => e.payload.name === 'Search')!.payload.manifestSha256);

  // A user agent taking the name is a different agent answering to it: on the record too.
  const mine = writeAgent(userDir, 'search', named('Search'));
  start().registry.refresh();
  entries = registrations();
  assert.equal(entries.length, 4);
  assert.deepEqual([entries[3].payload.source, entries[3].payload.folder], ['user', mine]);
  start().registry.refresh();
  assert.equal(registrations().length, 4);
});

test('an agents folder that cannot be listed is reported as invalid instead of stopping discovery', (t) => {
  const { bundledDir, userDir } = setup(t);
  writeAgent(bundledDir, 'search', named('Search'));
  mkdirSync(join(userDir, '..'), { recursive: true });
  // A symlink to itself: listing it fails with ELOOP, for root too (unlike a chmod 000 folder).
  symlinkSync(userDir, userDir);
  const catalog = buildCatalog(discoverAgents([{ source: 'bundled', dir: bundledDir }, { source: 'user', dir: userDir }]));
  assert.deepEqual(catalog.agents.map((a) => a.manifest.name), ['Search']);
  assert.equal(catalog.invalid.length, 1);
  assert.equal(catalog.invalid[0].folder, userDir);
  assert.match(catalog.invalid[0].report.issues[0].found, /a folder that cannot be listed \(ELOOP\)/);
});
