import assert from 'node:assert/strict';
import { test } from 'node:test';
import { waitFor } from '../helpers';
import { execFixture, outputOf, pollAll, spawnRun, waitEnded } from './execFixture';

const MIB = 1024 * 1024;
/** 1 MiB in numbered 64-byte lines, written in one go, then an immediate exit: the tail node-pty #72 would lose. */
const FLOOD = `
const line = (n) => String(n).padStart(7, '0') + ' ' + 'x'.repeat(55) + '\\n';
let text = '';
for (let n = 0; n < ${MIB / 64}; n++) text += line(n);
require('node:fs').writeSync(1, text);
process.exit(0);
`;
const EXPECTED = Array.from({ length: MIB / 64 }, (_, n) => `${String(n).padStart(7, '0')} ${'x'.repeat(55)}\n`).join('');

test('PTY: 1 MiB printed then an immediate exit, every byte polled (three runs)', async (t) => {
  const f = await execFixture();
  t.after(() => f.close());
  for (let round = 0; round < 3; round++) {
    const runId = await spawnRun(f, { command: [process.execPath, '-e', FLOOD], pty: true });
    const run = await waitEnded(f, runId);
    assert.equal(run.status, 'exited');
    assert.equal(run.exit_code, 0);
    const { items } = await pollAll(f, runId);
    assert.deepEqual(new Set(items.map((item) => item.kind)), new Set(['output', 'event']), 'a PTY has one output stream');
    // The terminal turns each \n into \r\n (onlcr); that is all it changes.
    const output = outputOf(items, 'output');
    assert.equal(output.length, EXPECTED.length + MIB / 64, `round ${round}: every byte arrived`);
    assert.ok(output.replaceAll('\r\n', '\n') === EXPECTED, `round ${round}: byte for byte`);
    assert.equal(run.output_bytes, output.length);
  }
});

test('PTY send_keys: text and named keys reach the program and are recorded as input items', async (t) => {
  const f = await execFixture();
  t.after(() => f.close());
  const runId = await spawnRun(f, { command: 'read first; read second; echo "got:$first:$second"; sleep 300', pty: true });
  await waitFor(() => f.exec.listRuns('ses_execfixture01').find((r) => r.run_id === runId)?.status === 'running', 'the run to start');
  const sent = await f.shell({ action: 'send_keys', run_id: runId, keys: ['hello', 'Enter'] });
  assert.equal(sent.action, 'send_keys');
  // Line editing by the terminal: Backspace erases the typed 'X'.
  await f.shell({ action: 'send_keys', run_id: runId, keys: ['worldX', 'Backspace', 'Enter'] });
  await waitFor(async () => outputOf((await pollAll(f, runId)).items, 'output').includes('got:hello:world'), 'the program to echo what it read');
  // C-c interrupts the foreground program (sleep): the terminal sends SIGINT.
  await f.shell({ action: 'send_keys', run_id: runId, keys: ['C-c'] });
  const run = await waitEnded(f, runId);
  assert.equal(run.signal, 'SIGINT');
  const { items } = await pollAll(f, runId);
  const inputs = items.filter((item) => item.kind === 'input');
  assert.deepEqual(
    inputs.map((item) => [item.data, item.detail?.keys]),
    [
      ['hello\r', ['hello', 'Enter']],
      ['worldX\x7f\r', ['worldX', 'Backspace', 'Enter']],
      ['\x03', ['C-c']],
    ],
  );
  assert.equal(inputs[0].seq, sent.seq);
});

test('send_keys to a pipe run writes its stdin; C-d ends it', async (t) => {
  const f = await execFixture();
  t.after(() => f.close());
  const runId = await spawnRun(f, { command: 'tr a-z A-Z' });
  await waitFor(() => f.exec.listRuns('ses_execfixture01').find((r) => r.run_id === runId)?.status === 'running', 'the run to start');
  await f.shell({ action: 'send_keys', run_id: runId, keys: ['shout', 'Enter'] });
  await f.shell({ action: 'send_keys', run_id: runId, keys: ['C-d'] });
  const run = await waitEnded(f, runId);
  assert.equal(run.exit_code, 0);
  assert.equal(outputOf((await pollAll(f, runId)).items, 'stdout'), 'SHOUT\n', 'Enter is a newline on a pipe');
});
