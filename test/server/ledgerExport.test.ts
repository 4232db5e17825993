import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { LedgerExportEvent } from '../../src-preload/contract';
import { waitFor } from '../helpers';
import { omniCli } from '../omniCli';
import { connectClient, hostWithWorkspace, startTestHost } from './connect';

const cli = omniCli();

test('Export from the app writes a file into the home that verifies offline, reporting progress on the way', async (t) => {
  const { host, client, workspace } = await hostWithWorkspace(t);
  const session = await client.call('session.create', { workspace: workspace.path });
  const ledger = host.server.services.ledger;
  for (let i = 0; i < 45_000; i++) ledger.append({ type: 'exec.spawn', actor: 'agent-1', sessionId: session.id, payload: { argv: ['echo', String(i)] } });
  const events: LedgerExportEvent[] = [];
  await new Promise<void>((resolve, reject) => {
    client.subscribe('ledger.export', { redactTypes: ['exec.*'] }, { onItem: (event) => events.push(event), onEnd: (error) => (error ? reject(error) : resolve()) });
  });
  const progress = events.filter((e) => e.kind === 'progress');
  const done = events.at(-1);
  assert.ok(progress.length >= 2, 'no progress was reported');
  assert.ok(done?.kind === 'done');
  assert.ok(done.file.startsWith(join(host.home, 'exports')), done.file);
  assert.equal(done.redacted, 45_000);
  const verified = spawnSync(process.execPath, [cli, 'ledger', 'verify', '--file', done.file], { encoding: 'utf8' });
  // The test host runs without a keychain: nothing is signed, so the file is consistent but proves no authorship.
  assert.equal(verified.status, 4, verified.stdout + verified.stderr);
  assert.match(verified.stdout, new RegExp(`^chain consistent, unsigned: ${done.entries} entries`));
});

test('an export abandoned half way leaves no file behind; an unknown session is refused with a clear error', async (t) => {
  const host = await startTestHost();
  const client = await connectClient(host.server);
  t.after(async () => {
    client.dispose();
    await host.cleanup();
  });
  const ledger = host.server.services.ledger;
  for (let i = 0; i < 200_000; i++) ledger.append({ type: 'test.entry', actor: 'user', payload: { i } });
  let progressed = false;
  const sub = client.subscribe('ledger.export', {}, { onItem: (e) => (progressed ||= e.kind === 'progress') });
  await waitFor(() => progressed, 'the export to progress');
  sub.dispose();
  const exportsDir = join(host.home, 'exports');
  await waitFor(() => readdirSync(exportsDir).length === 0, 'the partial export to be removed');

  const error = await new Promise<unknown>((resolve) => {
    client.subscribe('ledger.export', { sessionId: 'ses_nosuchone1' }, { onItem: () => {}, onEnd: resolve });
  });
  assert.match(String((error as Error)?.message), /no entries of session ses_nosuchone1/);
  assert.ok(existsSync(exportsDir) && readdirSync(exportsDir).length === 0);
});
