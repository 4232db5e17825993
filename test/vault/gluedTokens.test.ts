// Tokens glued to a word character (`a_ghp_…`, `x_AKIA…`, `1sk-ant-api03-…`, `id_xoxb-…`) or to anything else,
// before and after, are scrubbed by the one scrubber and so on every path that stores text: a property test over
// generated tokens of every kind with generated prefixes and suffixes.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { databasePath } from '../../src-main/node/home';
import { exportLedger } from '../../src-main/node/ledger/ledgerExport';
import { openDatabaseReadOnly } from '../../src-main/node/store/database';
import { Secret } from '../../src-main/node/vault/secret';
import { SecretRegistry } from '../../src-main/node/vault/secretRegistry';
import { SecretScrubber } from '../../src-main/node/vault/secretScrubber';
import { tempDir, waitFor } from '../helpers';
import { connectClient, startTestHost } from '../server/connect';
import { assertNoCanaryIn, hideCanaries } from './canaries';
import { describe, gluedCanaries, type GluedCanary } from './gluedCanaries';

const MARKER = /\[REDACTED:[a-z-]+\]/;

function scrubberFor(canaries: readonly GluedCanary[]): SecretScrubber {
  const registry = new SecretRegistry();
  for (const canary of canaries) if (canary.registered) registry.register(new Secret(canary.value));
  return new SecretScrubber(registry);
}

async function withCanariesHidden(canaries: readonly GluedCanary[], body: () => Promise<void> | void): Promise<void> {
  try {
    await body();
  } catch (error) {
    const text = error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error);
    throw new Error(hideCanaries(canaries, text));
  }
}

test('a token of every kind glued to any prefix and suffix is scrubbed from text, payload values and member names', async () => {
  const canaries = gluedCanaries(40);
  const scrubber = scrubberFor(canaries);
  await withCanariesHidden(canaries, () => {
    for (const canary of canaries) {
      const text = scrubber.scrubText(canary.glued);
      assertNoCanaryIn([canary], text, `the scrubbed text of ${describe(canary)}`);
      assert.match(text, MARKER, `${describe(canary)}: no marker`);
      // What is glued on is not a secret, and stays: the text still says where the token was.
      assert.ok(text.startsWith(canary.prefix), `${describe(canary)}: the prefix went with the token`);
      const payload = scrubber.scrubPayload({ [canary.glued]: { cwd: `/home/u/${canary.glued}/src`, argv: ['echo', canary.glued] } });
      assertNoCanaryIn([canary], JSON.stringify(payload), `the scrubbed payload of ${describe(canary)}`);
    }
  });
});

/** Every file under `dir`, as raw bytes. */
function filesUnder(dir: string, root = dir): { where: string; bytes: Buffer }[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path, root);
    return [{ where: relative(root, path), bytes: readFileSync(path) }];
  });
}

const oneLine = (canary: GluedCanary): boolean => !canary.glued.includes('\n');
/** A folder name: no "/", and not only dots. */
const folderSafe = (canary: GluedCanary): boolean => oneLine(canary) && !canary.glued.includes('/') && canary.glued.trim() === canary.glued;

test('glued tokens of every kind stay out of the database, its WAL and the ledger export, whichever path stored them', async () => {
  const canaries = gluedCanaries(3);
  // Folders named with a token: the sessions table keeps the real path (the host opens the folder by it), so these
  // are looked for where the path is written as text: the ledger's entries and export, and the runs' cwd.
  // (Not a JWT: every canary JWT's header has the same "alg" and "typ", so the folder's path in the sessions table
  // would show the other JWTs' header slices.)
  const folders = gluedCanaries(1, canaries.length).filter((canary) => folderSafe(canary) && canary.kind !== 'jwt');
  await withCanariesHidden([...canaries, ...folders], async () => {
    const home = tempDir('home');
    const workspaces = tempDir('ws');
    const exportDir = tempDir('export');
    try {
      const host = await startTestHost(home.path);
      const { services } = host.server;
      const client = await connectClient(host.server);
      try {
        for (const canary of [...canaries, ...folders]) if (canary.registered) services.secrets.register(new Secret(canary.value));
        const session = await client.call('session.create', { workspace: workspaces.path, name: 'glued' });

        // Session names and renames.
        for (const canary of canaries.filter(oneLine)) {
          const named = await client.call('session.create', { workspace: workspaces.path, name: canary.glued });
          assert.match(named.name, MARKER, `${describe(canary)}: the session name shows its marker`);
          await client.call('session.rename', { id: named.id, name: `renamed ${canary.glued}` });
        }

        // Workspace paths: the ledger's session.create entry and a run's cwd name the folder.
        for (const canary of folders) {
          const folder = join(workspaces.path, canary.glued);
          mkdirSync(folder);
          const inFolder = await client.call('session.create', { workspace: folder, name: 'in a folder' });
          await client.call('exec.shell', { session_id: inFolder.id, command: 'true' });
        }

        // Ledger payloads written by the host's own code.
        for (const canary of canaries) {
          services.ledger.append({ type: 'test.glued', actor: 'host', payload: { note: canary.glued, cwd: `/srv/${canary.glued}`, [canary.glued]: [canary.glued] } });
        }

        // Shell runs: tokens in argv and printed, through pipes and through a PTY.
        for (const pty of [false, true]) {
          for (const canary of canaries) {
            const result = await client.call('exec.shell', { session_id: session.id, command: `printf '%s\\n' '${canary.glued}'`, pty, action: 'spawn', background: false });
            assert.equal(result.action, 'spawn');
          }
        }
        const runs = await client.call('exec.runs', { sessionId: session.id });
        assert.ok(runs.every((run) => run.status === 'exited'), 'every run exited');
        await waitFor(() => (runs.length === canaries.length * 2 ? true : undefined), 'every run listed');

        services.ledger.flush();
        const textOfPaths = JSON.stringify([services.db.prepare('SELECT payload FROM audit_ledger').all(), services.db.prepare('SELECT cwd FROM exec_runs').all()]);
        assertNoCanaryIn(folders, textOfPaths, 'the ledger entries and the runs, naming a workspace folder');
        assert.ok(textOfPaths.includes('[REDACTED:'), 'the folders were named in the ledger');
        const running = filesUnder(home.path);
        for (const place of running) assertNoCanaryIn(canaries, place.bytes, `${place.where} (host running)`);
        const written = Buffer.concat(running.map((place) => place.bytes)).toString('latin1');
        for (const label of ['registered', 'github-token', 'anthropic-key', 'aws-access-key-id', 'slack-token', 'jwt', 'private-key']) {
          assert.ok(written.includes(`[REDACTED:${label}]`), `no [REDACTED:${label}] on disk: the planted text was not written`);
        }
      } finally {
        client.dispose();
        await host.cleanup();
      }
      for (const place of filesUnder(home.path)) assertNoCanaryIn(canaries, place.bytes, `${place.where} (host closed)`);
      const exportFile = join(exportDir.path, 'ledger.export');
      const snapshot = openDatabaseReadOnly(databasePath(home.path));
      try {
        await exportLedger(snapshot, exportFile);
      } finally {
        snapshot.close();
      }
      assertNoCanaryIn([...canaries, ...folders], readFileSync(exportFile), 'the ledger export');
    } finally {
      home.cleanup();
      workspaces.cleanup();
      exportDir.cleanup();
    }
  });
});
