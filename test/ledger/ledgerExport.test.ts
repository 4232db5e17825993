// Export and offline verification through the real `omni` CLI, with the ledger signed by a key in the REAL keychain.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { Ledger } from '../../src-main/node/ledger/ledger';
import { deleteLedgerRecords, ledgerFileIdentity } from '../../src-main/node/ledger/ledgerRecord';
import { loadOrCreateSigningKey, signingKeyAccount } from '../../src-main/node/ledger/ledgerSigningKey';
import { openDatabase } from '../../src-main/node/store/database';
import { openKeychain } from '../../src-main/node/vault/keytarKeychain';
import { tempDir } from '../helpers';
import { omniCli } from '../omniCli';
import { needsPrivateKeyring, rerunInPrivateKeyring } from '../privateKeyring';

const cli = omniCli();

function omni(...args: string[]) {
  const result = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
  return { code: result.status, out: result.stdout + result.stderr };
}

/** A home whose ledger has `entries` entries over two sessions, signed every 50, closed. Returns the home path. */
async function signedHome(t: TestContext, entries: number, home = tempDir('home')): Promise<string> {
  t.after(home.cleanup);
  const keychain = await openKeychain();
  const file = join(home.path, 'memory', 'sessions.db');
  const db = openDatabase(file);
  const ledger = new Ledger(db, { checkpointEvery: 50 });
  if (ledger.headInfo.size === 0) ledger.append({ type: 'host.start', actor: 'host', payload: { pid: 1 } });
  const ledgerId = ledger.ledgerId!;
  t.after(async () => {
    await keychain.delete(signingKeyAccount(ledgerId));
    await deleteLedgerRecords(keychain, ledgerFileIdentity(file), ledgerId);
  });
  ledger.startSigning(await loadOrCreateSigningKey(keychain, ledgerId), { keychain, file: ledgerFileIdentity(file) });
  for (let i = ledger.headInfo.size; i < entries; i++) {
    const kind = i % 3;
    ledger.append(
      kind === 0
        ? { type: 'terminal.open', actor: 'user', sessionId: 'ses_aaaaaaaa1', payload: { cwd: `/work/${i}`, shell: '/bin/bash' } }
        : kind === 1
          ? { type: 'exec.spawn', actor: 'agent-7', sessionId: 'ses_bbbbbbbb2', payload: { argv: ['make', `t${i}`], env: { CI: '1' } } }
          : { type: 'grant.issue', actor: 'user', sessionId: 'ses_aaaaaaaa1', payload: { capability: 'net', scope: `host-${i}.example` } },
    );
  }
  await ledger.close();
  db.close();
  return home.path;
}

function exportLines(file: string): Record<string, unknown>[] {
  return readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
}

if (needsPrivateKeyring) {
  rerunInPrivateKeyring(__filename, 120_000);
} else {
  test('a redacted export verifies offline; editing any disclosed payload in it is caught at that entry', async (t) => {
    const home = await signedHome(t, 120);
    const out = join(home, 'redacted.jsonl');
    const exported = omni('ledger', 'export', '--home', home, '--out', out, '--redact-type', 'terminal.*', '--redact-field', 'env.CI');
    assert.equal(exported.code, 0, exported.out);
    assert.match(exported.out, /exported 120 entries, 79 redacted, 0 elided, 4 signed checkpoints/);
    const lines = exportLines(out);
    for (const line of lines) {
      if (line.type === 'terminal.open' || line.type === 'exec.spawn') assert.equal(line.payload, null, `entry ${String(line.seq)} was disclosed`);
    }
    const verified = omni('ledger', 'verify', '--file', out);
    assert.equal(verified.code, 0, verified.out);
    assert.match(verified.out, /^intact: 120 entries, head [0-9a-f]{64}, last signed checkpoint at seq 120$/m);
    assert.match(verified.out, /79 payloads are redacted/);

    const text = readFileSync(out, 'utf8').split('\n');
    const disclosed = text.map((line, index) => ({ line, index })).filter(({ line }) => line.includes('"grant.issue"'));
    for (const { line, index } of disclosed.filter((_, n) => n % 8 === 0)) {
      const edited = [...text];
      edited[index] = line.replace(/host-(\d+)\.example/, 'host-$1.evil');
      const file = join(home, `edited-${index}.jsonl`);
      writeFileSync(file, edited.join('\n'));
      const result = omni('ledger', 'verify', '--file', file);
      const seq = (JSON.parse(line) as { seq: number }).seq;
      assert.equal(result.code, 1, `editing entry ${seq} went unnoticed`);
      assert.match(result.out, new RegExp(`NOT INTACT: entry ${seq} is the first bad one: its payload does not match its payload commitment`));
    }
  });

  test('a session export discloses that session only and still verifies; a later export extends it, another ledger does not', async (t) => {
    const homeDir = tempDir('home');
    const home = await signedHome(t, 60, homeDir);
    const first = join(home, 'first.jsonl');
    assert.equal(omni('ledger', 'export', '--home', home, '--out', first, '--session', 'ses_bbbbbbbb2').code, 0);
    const lines = exportLines(first);
    assert.ok(lines.filter((l) => l.elided === true).length > 0);
    assert.ok(lines.every((l) => l.elided === true || l.seq === undefined || l.sessionId === 'ses_bbbbbbbb2'), 'an entry of another session was disclosed');
    const verified = omni('ledger', 'verify', '--file', first);
    assert.equal(verified.code, 0, verified.out);
    assert.match(verified.out, /entries of other sessions are elided/);

    // The same ledger, grown: the new export extends the first.
    await signedHome(t, 90, { path: home, cleanup: () => {} });
    const second = join(home, 'second.jsonl');
    assert.equal(omni('ledger', 'export', '--home', home, '--out', second).code, 0);
    const extended = omni('ledger', 'verify', '--file', second, '--extends', first);
    assert.equal(extended.code, 0, extended.out);
    assert.match(extended.out, /extends .*first\.jsonl: entries 1-60 are the same, 30 entries added/);

    const otherHome = await signedHome(t, 90);
    const other = join(otherHome, 'other.jsonl');
    assert.equal(omni('ledger', 'export', '--home', otherHome, '--out', other).code, 0);
    const foreign = omni('ledger', 'verify', '--file', other, '--extends', first);
    assert.equal(foreign.code, 1);
    assert.match(foreign.out, /DOES NOT EXTEND .*: they are exports of different ledgers/);
  });

  test('a pinned key proves who signed; another key is refused', async (t) => {
    const home = await signedHome(t, 70);
    const out = join(home, 'ledger.jsonl');
    assert.equal(omni('ledger', 'export', '--home', home, '--out', out, '--redact').code, 0);
    const keyFile = join(home, 'ledger-key.pem');
    const key = omni('ledger', 'key', '--home', home, '--out', keyFile);
    assert.equal(key.code, 0, key.out);
    const pinned = omni('ledger', 'verify', '--file', out, '--key', keyFile);
    assert.equal(pinned.code, 0, pinned.out);
    assert.doesNotMatch(pinned.out, /pin the ledger's public key/);
    const unpinned = omni('ledger', 'verify', '--file', out);
    assert.match(unpinned.out, /pin the ledger's public key \(--key\)/);

    const otherHome = await signedHome(t, 5);
    const otherKey = join(otherHome, 'other.pem');
    assert.equal(omni('ledger', 'key', '--home', otherHome, '--out', otherKey).code, 0);
    const wrong = omni('ledger', 'verify', '--file', out, '--key', otherKey);
    assert.equal(wrong.code, 1);
    assert.match(wrong.out, /NOT INTACT: .*was signed by key [0-9a-f]{16}, not by the ledger's key/);
  });

  test('bad input gets a clear verdict, never a crash: a database, binary junk, an empty file, a cut export, broken JSON, a damaged database', async (t) => {
    const home = await signedHome(t, 40);
    const out = join(home, 'ledger.jsonl');
    assert.equal(omni('ledger', 'export', '--home', home, '--out', out).code, 0);
    const text = readFileSync(out, 'utf8');
    const cases: [string, string | Buffer, RegExp][] = [
      ['db', readFileSync(join(home, 'memory', 'sessions.db')), /NOT VERIFIABLE: .* is a SQLite database, not a ledger export/],
      ['junk', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]), /NOT VERIFIABLE: .* is not a ledger export/],
      ['empty', '', /NOT VERIFIABLE: .* is empty/],
      ['other-json', '{"hello":"world"}\n', /NOT VERIFIABLE: .* is not a ledger export \(its header names no/],
      ['cut', text.slice(0, Math.floor(text.length * 0.6)), /NOT INTACT: entry \d+ is the first bad one: line \d+: not valid JSON|the file ends early/],
      ['cut-at-line', text.split('\n').slice(0, 20).join('\n') + '\n', /NOT INTACT: .*the file ends early/],
      ['broken', text.replace('"seq":10,', '"seq":10,,'), /NOT INTACT: entry 10 is the first bad one: line \d+: not valid JSON/],
      ['bad-hash', text.replace(/("seq":12,.*?"entryHash":")[0-9a-f]{64}/, '$1xyz'), /NOT INTACT: entry 12 is the first bad one: line \d+: field "entryHash" must be 64 hex digits/],
    ];
    for (const [name, content, expected] of cases) {
      const file = join(home, `${name}.jsonl`);
      writeFileSync(file, content);
      const result = omni('ledger', 'verify', '--file', file);
      assert.equal(result.code, 1, `${name}: ${result.out}`);
      assert.match(result.out, expected, name);
      assert.doesNotMatch(result.out, /\n\s+at /, `${name}: a stack trace was printed`);
    }
    const missing = omni('ledger', 'verify', '--file', join(home, 'nope.jsonl'));
    assert.match(missing.out, /NOT VERIFIABLE: cannot read .*nope\.jsonl: no such file/);

    // A damaged database: its pages overwritten in the middle.
    const dbFile = join(home, 'memory', 'sessions.db');
    const bytes = readFileSync(dbFile);
    bytes.fill(0x5a, 4096, bytes.length);
    writeFileSync(dbFile, bytes);
    const damaged = omni('ledger', 'verify', '--home', home);
    assert.equal(damaged.code, 1);
    assert.match(damaged.out, /damaged|malformed|not a database/);
    assert.doesNotMatch(damaged.out, /\n\s+at /, 'a stack trace was printed');
  });
}
