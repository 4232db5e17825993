// The label a user types for a connection is free text stored in vault_connections: a key pasted into it (the one
// being connected, another registered secret, or anything shaped like a token, glued to a word or not) is stored,
// listed and shown as its marker. Composed as the host does (CredentialServices over the host's registry), real
// keychain, real SQLite file.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { ConsentEngine } from '../../src-main/node/consent/consentEngine';
import { Ledger } from '../../src-main/node/ledger/ledger';
import { openDatabase } from '../../src-main/node/store/database';
import { CredentialServices } from '../../src-main/node/vault/credentialServices';
import { openHostKeychain } from '../../src-main/node/vault/hostKeychain';
import { Secret } from '../../src-main/node/vault/secret';
import { SecretRegistry } from '../../src-main/node/vault/secretRegistry';
import { SecretScrubber } from '../../src-main/node/vault/secretScrubber';
import { tempDir } from '../helpers';
import { needsPrivateKeyring, rerunInPrivateKeyring } from '../privateKeyring';
import { assertNoCanaryIn, hideCanaries, TOKEN_SHAPES, type Canary } from './canaries';

if (needsPrivateKeyring) {
  rerunInPrivateKeyring(__filename, 60_000);
} else {
  it('a key pasted into a connection label is stored, listed and returned as its marker', async (t) => {
    const dir = tempDir('label');
    const dbFile = join(dir.path, 'memory', 'sessions.db');
    const db = openDatabase(dbFile);
    const secrets = new SecretRegistry();
    const scrubber = new SecretScrubber(secrets);
    const ledger = new Ledger(db, { scrub: (payload) => scrubber.scrubPayload(payload) });
    const consent = new ConsentEngine(db, ledger);
    const services = new CredentialServices({ db, ledger, keychain: openHostKeychain('os'), secrets, consent });
    t.after(() => {
      services.dispose();
      consent.dispose();
      ledger.dispose();
      db.close();
      dir.cleanup();
    });
    await services.vault.ready;
    const key = `sk-ant-api03-${randomBytes(40).toString('base64url')}`;
    const other = randomBytes(18).toString('base64url');
    secrets.register(new Secret(other));
    const github = TOKEN_SHAPES['github-classic']().value;
    const canaries: Canary[] = [key, other, github].map((value, index) => ({ index, kind: 'label', value, text: value, registered: true, standalone: true }));
    try {
      const labels = [`prod ${key}`, `team_${other}_shared`, `ci_${github}`];
      for (const label of labels) {
        const connection = await services.connections.addApiKey({ provider: 'anthropic', apiKey: new Secret(`sk-ant-api03-${randomBytes(40).toString('base64url')}`), label });
        assertNoCanaryIn(canaries, connection.label, 'the label addApiKey returned');
        assert.match(connection.label, /\[REDACTED:[a-z-]+\]/, 'the label says what was there');
      }
      await services.connections.addApiKey({ provider: 'anthropic', apiKey: new Secret(key), label: `mine ${key}` });
      const listed = services.connections.list();
      assert.equal(listed.length, 4);
      assertNoCanaryIn(canaries, JSON.stringify(listed), 'the connections listed');
      ledger.flush();
      db.pragma('wal_checkpoint(TRUNCATE)');
      const rows = db.prepare('SELECT label FROM vault_connections ORDER BY created_at').all() as { label: string }[];
      assert.ok(rows.every((row) => /\[REDACTED:[a-z-]+\]/.test(row.label)), 'every stored label holds its marker');
      for (const name of readdirSync(join(dir.path, 'memory'))) assertNoCanaryIn(canaries, readFileSync(join(dir.path, 'memory', name)), name);
    } catch (error) {
      throw new Error(hideCanaries(canaries, error instanceof Error ? `${error.message}\n${error.stack}` : String(error)));
    }
  });
}
