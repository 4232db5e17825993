// A reader that stops early (`omni … | head -c 10`): `omni` ends quietly, without a stack trace, instead of
// crashing on the EPIPE of its next write.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { tempDir } from '../helpers';
import { omniCli } from '../omniCli';
import { writeWatAgent } from './watAgent';

const cli = omniCli();

/** Runs `omni`, takes the first `keep` bytes of its stdout and then closes the pipe, as `head -c` does. */
function omniThenCloseAfter(keep: number, args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.length >= keep) child.stdout.destroy();
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out: out.slice(0, keep), err }));
  });
}

/** A WASM agent that sends output events without end: only its reader going away (or the timeout) stops it. */
async function endlessAgent(folder: string): Promise<void> {
  const event = `{\\"content_type\\":\\"text/x-log\\",\\"data\\":\\"${'y'.repeat(500)}\\",\\"chunk_id\\":\\"log\\"}`;
  const length = 500 + '{"content_type":"text/x-log","data":"","chunk_id":"log"}'.length;
  const wat = `(module
    (import "omni" "output" (func $output (param i32 i32) (result i64)))
    (memory (export "memory") 1)
    (data (i32.const 16) "${event}")
    (global $next (mut i32) (i32.const 4096))
    (func (export "omni_alloc") (param $len i32) (result i32)
      (local $at i32) global.get $next local.set $at
      global.get $next local.get $len i32.add global.set $next local.get $at)
    (func (export "omni_invoke") (param i32 i32)
      (loop $forever (drop (call $output (i32.const 16) (i32.const ${length}))) (br $forever))))`;
  await writeWatAgent(folder, 'endless', wat);
}

test('omni agent run | head: the run is cut off quietly with 141, well before its timeout', { timeout: 60_000 }, async (t) => {
  const home = tempDir('home');
  const workspace = tempDir('ws');
  t.after(() => {
    home.cleanup();
    workspace.cleanup();
  });
  const folder = join(home.path, 'endless');
  await endlessAgent(folder);
  const started = Date.now();
  const result = await omniThenCloseAfter(10, ['agent', 'run', folder, '--workspace', workspace.path, '--prompt', 'go', '--home', home.path, '--timeout', '30']);
  assert.equal(result.out, '{"schema_v');
  assert.equal(result.err, '', 'nothing on stderr, least of all a stack trace');
  // 128 + SIGPIPE: what a shell reports for any program whose output was cut (`yes | head -1`).
  assert.equal(result.code, 141);
  assert.ok(Date.now() - started < 20_000, 'it ended when its reader went away, not at its timeout');
});

test('omni harness spec | head -c 10: a command that has finished keeps its exit code and says nothing more', { timeout: 30_000 }, async (t) => {
  const dir = tempDir('harness-head');
  t.after(dir.cleanup);
  const args = ['harness', 'spec', '--frontend', 'claude-code', '--mode', 'headless', '--io', 'pipes', '--cwd', dir.path, '--prompt', 'q'.repeat(120_000), '--home', join(dir.path, 'home')];
  const result = await omniThenCloseAfter(10, args);
  assert.equal(result.out, '{\n  "spec"');
  assert.equal(result.err, '');
  assert.equal(result.code, 0);
});
