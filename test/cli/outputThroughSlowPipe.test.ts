// `omni` delivers all of its output to a reader on a pipe that reads slowly. Node queues a write to a full pipe (64 KiB
// unread) and finishes it from the event loop, so a CLI that calls process.exit() as soon as it has printed handed
// `omni … | wc -c` 65536 bytes of a multi-MB answer; a file got it whole. Each case reads through a real pipe,
// pausing after every chunk, and checks that every byte came.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { tempDir } from '../helpers';
import { omniCli } from '../omniCli';
import { writeWatAgent } from './watAgent';
import { hostWithWorkspace } from '../server/connect';

const cli = omniCli();

/** Pause after each chunk: the writer fills the pipe long before the reader has emptied it. */
const READ_PAUSE_MS = 8;

/** Runs `omni` with stdout and stderr on pipes that this process reads slowly; resolves when it has exited. */
function omniReadSlowly(args: string[]): Promise<{ code: number | null; out: Buffer; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      child.stdout.pause();
      setTimeout(() => child.stdout.resume(), READ_PAUSE_MS);
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out: Buffer.concat(chunks), err }));
  });
}

test('omni shell: a run that printed several MB comes back whole through a slow pipe', { timeout: 60_000 }, async (t) => {
  const { host, client, workspace } = await hostWithWorkspace(t);
  const session = await client.call('session.create', { workspace: workspace.path });
  const bytes = 3 * 1024 * 1024;
  // The one-shot form (no action) answers with all of the run's output in one JSON object.
  const request = { command: `head -c ${bytes} /dev/zero | tr '\\0' x`, session_id: session.id };
  const result = await omniReadSlowly(['shell', JSON.stringify(request), '--home', host.home]);
  assert.equal(result.code, 0, result.err);
  assert.ok(result.out.length > bytes, `${result.out.length} bytes arrived`);
  const answer = JSON.parse(result.out.toString()) as { stdout?: string; exit_code: number | null };
  assert.equal(answer.exit_code, 0);
  assert.equal(answer.stdout?.length, bytes);
});

test('omni harness spec: a long answer comes back whole through a slow pipe', { timeout: 60_000 }, async (t) => {
  const dir = tempDir('harness-pipe');
  t.after(dir.cleanup);
  // The prompt is echoed in the argv and the display command: an answer of a few hundred KB, over the pipe's 64 KiB.
  const prompt = 'p'.repeat(120_000);
  const result = await omniReadSlowly(['harness', 'spec', '--frontend', 'claude-code', '--mode', 'headless', '--io', 'pipes', '--cwd', dir.path, '--prompt', prompt, '--home', join(dir.path, 'home')]);
  assert.equal(result.code, 0, result.err);
  assert.ok(result.out.length > 3 * 65536, `${result.out.length} bytes arrived`);
  const answer = JSON.parse(result.out.toString()) as { spec: { argv: string[] } };
  assert.equal(answer.spec.argv.at(-1), prompt);
});

const EVENTS = 3000;
const DATA_CHARS = 1000;

/** A WASM agent that sends EVENTS output events of DATA_CHARS characters each, as fast as the runtime lets it. */
async function floodAgent(folder: string): Promise<void> {
  const event = `{\\"content_type\\":\\"text/x-log\\",\\"data\\":\\"${'x'.repeat(DATA_CHARS)}\\",\\"chunk_id\\":\\"log\\"}`;
  const length = DATA_CHARS + '{"content_type":"text/x-log","data":"","chunk_id":"log"}'.length;
  const wat = `(module
    (import "omni" "output" (func $output (param i32 i32) (result i64)))
    (memory (export "memory") 2)
    (data (i32.const 16) "${event}")
    (global $next (mut i32) (i32.const 8192))
    (func (export "omni_alloc") (param $len i32) (result i32)
      (local $at i32) global.get $next local.set $at
      global.get $next local.get $len i32.add global.set $next local.get $at)
    (func (export "omni_invoke") (param i32 i32) (local $i i32)
      (loop $more
        (drop (call $output (i32.const 16) (i32.const ${length})))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br_if $more (i32.lt_u (local.get $i) (i32.const ${EVENTS}))))))`;
  await writeWatAgent(folder, 'flood', wat);
}

test('omni agent run: a flood of events comes back whole through a slow pipe', { timeout: 90_000 }, async (t) => {
  const home = tempDir('home');
  const workspace = tempDir('ws');
  t.after(() => {
    home.cleanup();
    workspace.cleanup();
  });
  const folder = join(home.path, 'flood');
  await floodAgent(folder);
  const result = await omniReadSlowly(['agent', 'run', folder, '--workspace', workspace.path, '--prompt', 'go', '--home', home.path]);
  assert.equal(result.code, 0, result.err);
  const text = result.out.toString();
  assert.ok(text.endsWith('\n'), `the last line is cut: ${text.length} characters arrived`);
  const events = text.trimEnd().split('\n').map((line) => JSON.parse(line) as { type: string; data?: string });
  const outputs = events.filter((e) => e.type === 'output');
  assert.equal(outputs.length, EVENTS);
  assert.ok(outputs.every((e) => e.data === 'x'.repeat(DATA_CHARS)));
});
