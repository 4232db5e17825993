// "Withhold fields" withholds those fields only: the rest of each payload is still shown, the file still verifies,
// and the verifier says which parts it cannot prove.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Ledger } from '../../src-main/node/ledger/ledger';
import { exportLedger } from '../../src-main/node/ledger/ledgerExport';
import { verifyExportFile } from '../../src-main/node/ledger/verifyExport';
import { openDatabase } from '../../src-main/node/store/database';
import { tempDir } from '../helpers';

interface Line {
  seq?: number;
  type?: string;
  payload?: Record<string, unknown> | null;
  redacted?: string;
  disclosed?: Record<string, unknown>;
}

test('withholding fields hides only them: the other fields are shown, other entries are whole, the file verifies', async (t) => {
  const home = tempDir('home');
  t.after(home.cleanup);
  const db = openDatabase(join(home.path, 'memory', 'sessions.db'));
  t.after(() => db.close());
  const ledger = new Ledger(db);
  ledger.append({ type: 'exec.spawn', actor: 'agent:builder', payload: { argv: ['npm', 'test'], cwd: '/ws', env: { TOKEN: 'tok-123', HOME: '/home/ana' } } });
  ledger.append({ type: 'consent.grant', actor: 'user', payload: { agentId: 'workspace-summary', capability: 'files.read', scope: '**', durationS: 600 } });
  ledger.append({ type: 'exec.spawn', actor: 'agent:builder', payload: { argv: ['ls'], cwd: '/ws', env: { HOME: '/home/ana' } } });
  ledger.flush();

  const file = join(home.path, 'export.jsonl');
  const summary = await exportLedger(db, file, { redactFields: ['env.TOKEN', 'scope'] });
  assert.equal(summary.redacted, 2);
  const lines = readFileSync(file, 'utf8').trim().split('\n').map((text) => JSON.parse(text) as Line);
  const entries = lines.filter((line) => line.seq !== undefined);

  // The spawn with a token: everything but env.TOKEN is shown (HOME stays), the token itself nowhere in the file.
  assert.deepEqual(entries[0].disclosed, { argv: ['npm', 'test'], cwd: '/ws', env: { HOME: '/home/ana' } });
  assert.equal(entries[0].payload, null);
  assert.equal(entries[0].redacted, 'field:env.TOKEN');
  assert.doesNotMatch(readFileSync(file, 'utf8'), /tok-123/);
  // The grant: only its scope is withheld.
  assert.deepEqual(entries[1].disclosed, { agentId: 'workspace-summary', capability: 'files.read', durationS: 600 });
  assert.equal(entries[1].redacted, 'field:scope');
  // An entry without those fields is exported whole, with its commitment checked.
  assert.deepEqual(entries[2].payload, { argv: ['ls'], cwd: '/ws', env: { HOME: '/home/ana' } });
  assert.equal(entries[2].disclosed, undefined);

  const checked = await verifyExportFile(file, null);
  assert.equal(checked.verdict.intact, true, JSON.stringify(checked.verdict));
  assert.ok(checked.verdict.intact && checked.verdict.notes.some((note) => /^2 entries show their payloads with fields withheld/.test(note)));
});

test('a parent and its child both asked for: the parent goes, and no empty parent comes back', async (t) => {
  const home = tempDir('home');
  t.after(home.cleanup);
  const db = openDatabase(join(home.path, 'memory', 'sessions.db'));
  t.after(() => db.close());
  const ledger = new Ledger(db);
  ledger.append({ type: 'exec.spawn', actor: 'host', payload: { cwd: '/ws', env: { TOKEN: 'x' } } });
  ledger.flush();
  const file = join(home.path, 'export.jsonl');
  await exportLedger(db, file, { redactFields: ['env', 'env.TOKEN'] });
  const entry = readFileSync(file, 'utf8').trim().split('\n').map((text) => JSON.parse(text) as Line).find((line) => line.seq === 1)!;
  assert.deepEqual(entry.disclosed, { cwd: '/ws' });
  assert.equal(entry.redacted, 'field:env,env.TOKEN');
});

test('an export with a "disclosed" beside a payload that is shown does not verify', async (t) => {
  const home = tempDir('home');
  t.after(home.cleanup);
  const db = openDatabase(join(home.path, 'memory', 'sessions.db'));
  t.after(() => db.close());
  const ledger = new Ledger(db);
  ledger.append({ type: 'exec.spawn', actor: 'host', payload: { cwd: '/ws' } });
  ledger.flush();
  const file = join(home.path, 'export.jsonl');
  await exportLedger(db, file, {});
  const { writeFileSync } = await import('node:fs');
  const original = readFileSync(file, 'utf8');
  writeFileSync(file, original.replace('"payload":{"cwd":"/ws"}', '"payload":{"cwd":"/ws"},"disclosed":{"cwd":"/elsewhere"}'));
  const beside = await verifyExportFile(file, null);
  assert.equal(beside.verdict.intact, false);
  assert.match(!beside.verdict.intact ? beside.verdict.reason : '', /"disclosed" belongs to an entry whose payload is withheld/);
});
