import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Contract } from '../../src-preload/contract';
import type { RpcClient } from '../../src-preload/rpc';
import { replaySession } from '../../src-main/node/eventlog/replaySession';
import type { SessionState } from '../../src-main/node/eventlog/sessionState';
import { readSessionEvents } from '../../src-main/node/eventlog/storedEvents';
import { databasePath } from '../../src-main/node/home';
import { canonicalJson } from '../../src-main/node/ledger/canonicalJson';
import { openDatabaseReadOnly } from '../../src-main/node/store/database';
import { SCROLLBACK_CHARS } from '../../src-main/node/terminals/scrollback';
import { tempDir, waitFor } from '../helpers';
import { connectClient, startTestHost, type TestHost } from './connect';

/** A seeded pseudo-random generator, so a failing run can be repeated exactly. */
function random(seed: number) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let x = s;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(list: readonly T[]): T => list[int(list.length)];
  return { next, int, pick };
}

/** Words for random output: several scripts and an emoji (two UTF-16 units), nothing a shell would expand. */
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'café', 'naïve', 'straße', '中文', 'テスト', 'ελληνικά', '😀', 'x-y_z', '42', 'tab\tsep'];

const bytesOf = (state: SessionState) => Buffer.from(canonicalJson(state), 'utf8');

type Rng = ReturnType<typeof random>;

/** Runs a few commands in a new terminal of the session, waiting for each to finish; leaves it in a random end state. */
async function workInTerminal(host: TestHost, client: RpcClient<Contract>, sessionId: string, rng: Rng, bigOutput: boolean) {
  const term = await client.call('terminal.open', { sessionId, cols: 40 + rng.int(160), rows: 10 + rng.int(50) });
  const shows = (text: string) => () => host.server.services.events.live(sessionId).state.terminals.find((t) => t.terminal.id === term.id)?.scrollback.includes(text);
  const commands = 1 + rng.int(4);
  for (let i = 0; i < commands; i++) {
    const words = Array.from({ length: 1 + rng.int(60) }, () => rng.pick(WORDS)).join(' ');
    const n = 1000 + rng.int(9000);
    // The echo of the typed line shows "$((n+1))"; only the command's output shows the number itself.
    await client.call('terminal.input', { id: term.id, data: `printf '%s\\n' '${words}'; echo "done $((${n}+1))"\r` });
    await waitFor(shows(`done ${n + 1}`), `command ${i} in ${term.id}`);
    if (rng.next() < 0.4) await client.call('terminal.resize', { id: term.id, cols: 20 + rng.int(200), rows: 5 + rng.int(80) });
  }
  if (bigOutput) {
    // More than the scrollback holds (about 3.1M characters): what is kept is its last 2M, cut mid-line.
    await client.call('terminal.input', { id: term.id, data: 'seq 1 400000; echo "big $((6*7))"\r' });
    await waitFor(shows('big 42'), 'the big output', 60_000);
  }
  const end = rng.next();
  if (end < 0.3) {
    await client.call('terminal.input', { id: term.id, data: `exit ${1 + rng.int(9)}\r` });
    await waitFor(async () => (await client.call('terminal.list', { sessionId })).find((t) => t.id === term.id)?.status === 'exited', 'the shell to exit');
  } else if (end < 0.5) {
    await client.call('terminal.close', { id: term.id });
  }
  // Otherwise it keeps running until its session is closed or the host stops.
}

test('100 sessions replayed from the event log on disk equal their live state byte for byte, before and after a restart', async (t) => {
  const home = tempDir('home');
  const workspaces = [tempDir('ws'), tempDir('ws'), tempDir('ws')];
  let host: TestHost | undefined;
  t.after(async () => {
    await host?.cleanup();
    home.cleanup();
    for (const w of workspaces) w.cleanup();
  });
  const rng = random(3_2025);
  host = await startTestHost(home.path);
  let client = await connectClient(host.server);

  const ids: string[] = [];
  for (let i = 0; i < 100; i++) {
    const name = rng.next() < 0.3 ? undefined : `session ${i} ${rng.pick(WORDS)}`;
    ids.push((await client.call('session.create', { workspace: rng.pick(workspaces).path, name })).id);
  }
  for (let step = 0; step < 300; step++) {
    const id = rng.pick(ids);
    const session = (await client.call('session.list', { includeClosed: true })).find((s) => s.id === id)!;
    const op = rng.next();
    if (op < 0.5) await client.call('session.rename', { id, name: `${rng.pick(WORDS)} ${step}` });
    else if (session.status === 'open') await client.call('session.close', { id });
    else await client.call('session.reopen', { id });
  }

  // Terminals with real shells in 12 sessions; one prints more than its scrollback keeps; some sessions are closed
  // with their terminals still running.
  const withTerminals = ids.slice(0, 12);
  await Promise.all(
    withTerminals.map(async (id, i) => {
      const local = random(1000 + i);
      await client.call('session.reopen', { id });
      for (let k = 0, count = 1 + local.int(2); k < count; k++) await workInTerminal(host!, client, id, local, i === 0 && k === 0);
      if (i % 4 === 3) await client.call('session.close', { id });
    }),
  );

  // The live state of every session and the seq that rebuilds it, all in one synchronous step.
  const services = host.server.services;
  const live = new Map(ids.map((id) => [id, services.events.live(id)]));
  const terminals = [...live.values()].flatMap((l) => l.state.terminals);
  assert.ok(terminals.length >= 8, `terminals still open in the live state: ${terminals.length}`);
  assert.ok(terminals.some((t) => t.terminal.status === 'exited' && t.terminal.exitCode !== null), 'one has exited with a code');
  assert.ok(terminals.some((t) => t.scrollback.length === SCROLLBACK_CHARS), 'one has a full scrollback');
  assert.ok(terminals.some((t) => /[\u0080-\uffff]/.test(t.scrollback)), 'output beyond ASCII');
  assert.ok([...live.values()].some((l) => l.state.session.status === 'closed'));

  client.dispose();
  await host.cleanup();
  host = undefined;

  // Replayed from the database on disk, through the seq captured with each live state.
  const db = openDatabaseReadOnly(databasePath(home.path));
  try {
    for (const [id, { state, seq }] of live) {
      const replayed = replaySession(id, readSessionEvents(db, id, { throughSeq: seq }));
      if (!bytesOf(replayed).equals(bytesOf(state))) assert.deepStrictEqual(replayed, state, `session ${id} replays differently`);
    }
  } finally {
    db.close();
  }

  // The whole log (the host's shutdown closed every terminal) replays into what a restarted host shows.
  host = await startTestHost(home.path);
  client = await connectClient(host.server);
  for (const id of ids) {
    const restarted: SessionState = host.server.services.events.live(id).state;
    assert.equal(restarted.terminals.length, 0);
    assert.ok(bytesOf(host.server.services.events.replay(id)).equals(bytesOf(restarted)), `session ${id} after the restart`);
  }
  client.dispose();
});
