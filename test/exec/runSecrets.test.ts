// A shell run never stores a secret: what it prints (pipes or PTY) and what its argv names are scrubbed before
// they reach exec_run_items / exec_runs, so poll hands an agent the marker, never the value (a hostile agent echoing
// a vault secret reads back "[REDACTED:registered]"). A token the reads cut in two is scrubbed whole; the command
// itself still runs with the real values.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { RunItem } from '../../src-preload/contract/exec';
import { ExecService } from '../../src-main/node/exec/execService';
import { Ledger } from '../../src-main/node/ledger/ledger';
import { openDatabase } from '../../src-main/node/store/database';
import { Secret } from '../../src-main/node/vault/secret';
import { SecretRegistry } from '../../src-main/node/vault/secretRegistry';
import { SecretScrubber } from '../../src-main/node/vault/secretScrubber';
import { tempDir, waitFor } from '../helpers';
import { assertNoCanaryIn, hideCanaries, makeCanaries, TOKEN_SHAPES, type Canary } from '../vault/canaries';
import { execFixture, outputOf, pollAll, SESSION, spawnRun, waitEnded, type ExecFixture } from './execFixture';

const MARKER = /\[REDACTED:[a-z-]+\]/;

/** A registry with a registered secret in it, and the fixture whose exec scrubs with it (as the host wires it). */
async function fixtureWithSecret(t: { after(fn: () => unknown): void }): Promise<{ f: ExecFixture; secret: string }> {
  const registry = new SecretRegistry();
  const secret = `vault-${createHash('sha256').update(String(Math.random())).digest('base64url').slice(0, 28)}`;
  registry.register(new Secret(secret));
  const f = await execFixture({ scrubber: new SecretScrubber(registry) });
  t.after(() => f.close());
  return { f, secret };
}

/**
 * The exec tables as stored (every column of every row), read after the writer's last flush. (The fixture's ledger
 * does not scrub; the host's does, and its tests cover it.)
 */
function execTables(f: ExecFixture): string {
  return JSON.stringify(['exec_runs', 'exec_run_items', 'exec_backlog'].map((table) => f.db.prepare(`SELECT * FROM ${table}`).all()));
}

function canary(index: number, kind: string, value: string): Canary {
  return { index, kind, value, text: value, registered: kind === 'registered', standalone: true };
}

async function hidingCanaries(canaries: readonly Canary[], body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (error) {
    throw new Error(hideCanaries(canaries, error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error)));
  }
}

for (const pty of [false, true]) {
  test(`${pty ? 'PTY' : 'pipe'} run: a vault secret and tokens it prints and names in its argv come back from poll, and sit in SQLite, as markers`, async (t) => {
    const { f, secret } = await fixtureWithSecret(t);
    const tokens = makeCanaries(24).filter((c) => !c.registered && c.standalone);
    const canaries = [canary(100, 'registered', secret), ...tokens];
    await hidingCanaries(canaries, async () => {
      const args = canaries.map((c) => `'${c.value}'`).join(' ');
      // Also to stderr, and the secret's digest: proof the command got the real value, not the marker.
      const runId = await spawnRun(f, { command: `printf '%s\\n' ${args}; printf 'err %s\\n' '${secret}' >&2; printf '%s' '${secret}' | sha256sum`, pty });
      const run = await waitEnded(f, runId);
      assert.equal(run.status, 'exited');
      const { items } = await pollAll(f, runId);
      const output = outputOf(items, pty ? 'output' : 'stdout') + outputOf(items, 'stderr');
      assertNoCanaryIn(canaries, JSON.stringify(items), 'what poll returned');
      assertNoCanaryIn(canaries, JSON.stringify(run.argv), 'the run as listed');
      assert.ok(output.includes('[REDACTED:registered]'), 'the vault secret printed shows as its marker');
      assert.ok(output.includes(createHash('sha256').update(secret).digest('hex')), 'the command ran with the real secret');
      assert.match(run.argv.join(' '), MARKER);
      assertNoCanaryIn(canaries, execTables(f), 'the exec tables');
    });
  });
}

test('a token the reads cut in two (two writes, a pause between) is scrubbed whole: in pipes, a PTY, and across a key block', async (t) => {
  const { f, secret } = await fixtureWithSecret(t);
  const github = TOKEN_SHAPES['github-classic']().value;
  const key = TOKEN_SHAPES['private-key']().text.trimEnd();
  const canaries = [canary(0, 'registered', secret), canary(1, 'github-classic', github), canary(2, 'private-key', key.split('\n').slice(1, -1).join('\n'))];
  await hidingCanaries(canaries, async () => {
    // Each value whole in the argv (where it is scrubbed), printed from a file in two writes 30 ms apart.
    const save = (value: string, file: string) => `printf '%s' '${value}' > ${file}`;
    const halves = (file: string, at: number) => `head -c ${at} ${file}; sleep 0.03; tail -c +${at + 1} ${file}; echo`;
    const keyLineByLine = `while IFS= read -r line; do printf '%s\\n' "$line"; sleep 0.02; done < k`;
    const command = `${save(github, 'g')} && ${save(secret, 's')} && ${save(key, 'k')} && echo >> k && printf 'token: ' && ${halves('g', 20)} && ${halves('s', 12)} && ${keyLineByLine}; printf 'done\\n'`;
    for (const pty of [false, true]) {
      const runId = await spawnRun(f, { command, pty });
      await waitEnded(f, runId);
      const { items } = await pollAll(f, runId);
      const outputs = items.filter((item: RunItem) => item.kind === 'stdout' || item.kind === 'output');
      const text = outputs.map((item) => item.data).join('');
      assertNoCanaryIn(canaries, text, `the ${pty ? 'PTY' : 'pipe'} run's output`);
      for (const label of ['github-token', 'registered', 'private-key']) assert.ok(text.includes(`[REDACTED:${label}]`), `${label} shows as its marker`);
      assert.match(text, /done\r?\n$/, 'the output after the secrets is all there');
    }
    assertNoCanaryIn(canaries, execTables(f), 'the exec tables');
  });
});

test('a watcher sees the output scrubbed: matching on a secret tells an agent nothing, and no event stores it', async (t) => {
  const { f, secret } = await fixtureWithSecret(t);
  const canaries = [canary(0, 'registered', secret)];
  await hidingCanaries(canaries, async () => {
    const runId = await spawnRun(f, {
      command: `printf 'key=%s\\n' '${secret}'`,
      watch: [
        { regex: secret.slice(0, 10), event: 'probe' },
        { regex: 'key=\\S+', event: 'found' },
      ],
    });
    await waitEnded(f, runId);
    const { items } = await pollAll(f, runId);
    const events = items.filter((item) => item.kind === 'event');
    assert.ok(!events.some((item) => item.data === 'probe'), 'a watcher probing the secret found nothing');
    assert.ok(events.some((item) => item.data === 'found'), 'a watcher on the line still fires');
    assertNoCanaryIn(canaries, JSON.stringify(items), 'the run items');
    assertNoCanaryIn(canaries, JSON.stringify(f.exec.backlog(SESSION)), 'the backlog');
  });
});

test('a prompt without a line end is not held back for long: poll shows it while the command waits', async (t) => {
  const f = await execFixture();
  t.after(() => f.close());
  const runId = await spawnRun(f, { command: "printf 'Continue? [y/N] '; sleep 5" });
  const started = Date.now();
  await waitFor(async () => {
    const page = await f.shell({ action: 'poll', run_id: runId, since_seq: 0 });
    return page.action === 'poll' && outputOf(page.items, 'stdout') === 'Continue? [y/N] ' ? true : undefined;
  }, 'the prompt in a poll');
  assert.ok(Date.now() - started < 3000, 'seen well before the command ends');
  await f.shell({ action: 'kill', run_id: runId });
});

test('a queued run whose command held a secret is not run with the marker after a restart: it fails, saying why', async () => {
  const dir = tempDir('exec-restart');
  try {
    const dbFile = join(dir.path, 'memory', 'sessions.db');
    const workspace = dir.path;
    const marker = join(dir.path, 'ran');
    const github = TOKEN_SHAPES['github-classic']().value;
    const canaries = [canary(0, 'github-classic', github)];
    await hidingCanaries(canaries, async () => {
      // A host that queues the run and stops before its worker starts.
      let db = openDatabase(dbFile);
      let ledger = new Ledger(db);
      let exec = new ExecService(db, ledger);
      const spawned = await exec.shell({ action: 'spawn', session_id: SESSION, command: `printf '%s' '${github}' > '${marker}'` }, { actor: 'user', workspace });
      assert.equal(spawned.action, 'spawn');
      await exec.dispose();
      await ledger.close();
      assertNoCanaryIn(canaries, JSON.stringify(db.prepare('SELECT argv FROM exec_runs').all()), 'the stored run');
      db.close();

      db = openDatabase(dbFile);
      ledger = new Ledger(db);
      exec = new ExecService(db, ledger);
      try {
        await exec.start();
        const run = await waitFor(() => exec.listRuns(SESSION).find((r) => r.run_id === spawned.run_id && r.status !== 'queued' && r.status !== 'running'), 'the run to end');
        assert.equal(run.status, 'failed');
        assert.match(run.reason ?? '', /held a secret/);
        assert.equal(existsSync(marker), false, 'the scrubbed command did not run');
      } finally {
        await exec.dispose();
        await ledger.close();
        db.close();
      }
    });
  } finally {
    dir.cleanup();
  }
});
