// A flooding agent is throttled by the runtime's token buckets: its output calls are held, so it slows down, and
// everything it sent still arrives, in order.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { AgentRunEvent } from '../../src-preload/contract';
import { AgentRegistry } from '../../src-main/node/agents/registry';
import { AgentRuntime } from '../../src-main/node/agents/runtime/agentRuntime';
import { ConsentEngine } from '../../src-main/node/consent/consentEngine';
import { Ledger } from '../../src-main/node/ledger/ledger';
import { AgentStore } from '../../src-main/node/sandbox/wasm/agentStore';
import { WasmSandbox } from '../../src-main/node/sandbox/wasm/wasmSandbox';
import { SessionService } from '../../src-main/node/sessions/sessionService';
import { openDatabase } from '../../src-main/node/store/database';
import { tempDir } from '../helpers';

const CHUNKS = 300;

/** An agent that sends CHUNKS output chunks, numbered, as fast as it can. */
const FLOOD = `(module
  (import "omni" "output" (func $output (param i32 i32) (result i64)))
  (memory (export "memory") 2)
  (data (i32.const 16) "{\\"content_type\\":\\"text/x-log\\",\\"data\\":\\"line 000\\\\n\\",\\"chunk_id\\":\\"log\\"}")
  (global $next (mut i32) (i32.const 4096))
  (func (export "omni_alloc") (param $len i32) (result i32)
    (local $at i32) global.get $next local.set $at
    global.get $next local.get $len i32.add global.set $next local.get $at)
  (func (export "omni_invoke") (param i32 i32) (local $i i32)
    (loop $more
      ;; write the number into "line 000" (its three digits are at 16 + 42)
      (i32.store8 (i32.const 58) (i32.add (i32.const 48) (i32.div_u (local.get $i) (i32.const 100))))
      (i32.store8 (i32.const 59) (i32.add (i32.const 48) (i32.rem_u (i32.div_u (local.get $i) (i32.const 10)) (i32.const 10))))
      (i32.store8 (i32.const 60) (i32.add (i32.const 48) (i32.rem_u (local.get $i) (i32.const 10))))
      (drop (call $output (i32.const 16) (i32.const 66)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $more (i32.lt_u (local.get $i) (i32.const ${CHUNKS})))))
)`;

test('a flooding agent is held to its output rate, and all of its output arrives in order', { timeout: 60_000 }, async (t) => {
  const dir = tempDir('flood');
  t.after(dir.cleanup);
  const wabt = await (await import('wabt')).default();
  const folder = join(dir.path, 'agents', 'flood');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'agent.wasm'), Buffer.from(wabt.parseWat('flood.wat', FLOOD).toBinary({}).buffer));
  writeFileSync(
    join(folder, 'manifest.toml'),
    'schema_version = "0.1"\nname = "flood"\nversion = "0.1.0"\nentry = "agent.wasm"\nsandbox = "wasm"\ncapabilities = []\noauth_scopes = []\nresources.cpu = "1"\nresources.mem = "1Mi"\nui.hints = ["log"]\n',
  );
  mkdirSync(join(dir.path, 'ws'));
  const db = openDatabase(join(dir.path, 'sessions.db'));
  const ledger = new Ledger(db);
  const sessions = new SessionService(db, ledger);
  const consent = new ConsentEngine(db, ledger);
  const runtime = new AgentRuntime({
    registry: new AgentRegistry({ db, ledger, bundledDir: join(dir.path, 'none'), userDir: join(dir.path, 'agents') }),
    sessions,
    ledger,
    sandbox: () => new WasmSandbox({ consent, store: new AgentStore(db), warmProcesses: 0 }),
    // 50 chunks at once, then 250 a second: 300 chunks cannot take less than 1 s.
    outputRate: { chunksPerSecond: 250, chunkBurst: 50, charsPerSecond: 1_000_000, charBurst: 1_000_000 },
  });
  t.after(async () => {
    runtime.dispose();
    consent.dispose();
    await ledger.close();
    db.close();
  });
  const session = sessions.create(join(dir.path, 'ws'), undefined, 'user');
  const started = performance.now();
  const info = runtime.start(session.id, 'flood', 'go', 'user');
  const run = runtime.get(info.id);
  const events = await new Promise<AgentRunEvent[]>((resolve) => {
    const seen: AgentRunEvent[] = [];
    run.onDidAppend((event) => {
      seen.push(event);
      if (event.kind === 'ended') resolve([...run.replay()]);
    });
  });
  const elapsed = performance.now() - started;
  const ended = events.at(-1);
  assert.ok(ended?.kind === 'ended' && ended.run.outcome === 'completed', JSON.stringify(ended));
  const lines = events.filter((e) => e.kind === 'output').map((e) => (e.kind === 'output' ? e.data : ''));
  assert.equal(lines.length, CHUNKS);
  assert.deepEqual(lines, Array.from({ length: CHUNKS }, (_, i) => `line ${String(i).padStart(3, '0')}\n`));
  // A lower bound only: the buckets make a faster run impossible, whatever the machine.
  assert.ok(elapsed >= 1000, `300 chunks at 250/s after a burst of 50 took only ${Math.round(elapsed)} ms: the agent was not throttled`);
});
