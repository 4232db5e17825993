import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { Ledger } from '../../src-main/node/ledger/ledger';
import { openDatabase } from '../../src-main/node/store/database';
import { tempDir } from '../helpers';
import { omniCli } from '../omniCli';

const cli = omniCli();

function omni(...args: string[]) {
  const result = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
  return { code: result.status, out: result.stdout + result.stderr };
}

test('omni ledger verify says an unsigned ledger is only chain-consistent (exit 4), then names the first bad entry after tampering', (t) => {
  const home = tempDir('home');
  t.after(home.cleanup);
  const db = openDatabase(join(home.path, 'memory', 'sessions.db'));
  const ledger = new Ledger(db);
  for (let i = 0; i < 20; i++) ledger.append({ type: 'test.entry', actor: 'user', payload: { i } });
  ledger.flush();
  const head = ledger.headInfo.hash;
  const intact = omni('ledger', 'verify', '--home', home.path);
  assert.equal(intact.code, 4, intact.out);
  assert.match(intact.out, new RegExp(`^chain consistent, unsigned: 20 entries, head ${head}; no signed checkpoint, so this proves nothing about who wrote it`, 'm'));

  db.exec('DROP TRIGGER audit_ledger_no_update');
  db.prepare(`UPDATE audit_ledger SET payload = '{"i":99}' WHERE seq = 7`).run();
  db.close();
  const tampered = omni('ledger', 'verify', '--home', home.path);
  assert.equal(tampered.code, 1);
  assert.match(tampered.out, /NOT INTACT: entry 7 is the first bad one: its payload does not match its payload commitment/);
});

test('omni ledger verify explains a missing ledger and a mistyped action', (t) => {
  const home = tempDir('home');
  t.after(home.cleanup);
  const missing = omni('ledger', 'verify', '--home', home.path);
  assert.equal(missing.code, 1);
  assert.match(missing.out, /no ledger at .*sessions\.db/);
  const wrong = omni('ledger', 'verfy');
  assert.equal(wrong.code, 2);
  assert.match(wrong.out, /unknown ledger action "verfy"/);
});
