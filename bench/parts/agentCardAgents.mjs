// The two user agents the agent-card bench installs, written in WAT and compiled with the wabt package:
//   card-flood    emits one log line per output call at a steady rate (10,000 chunks/s by default), each line
//                 carrying its number and the wall-clock millisecond it was emitted, so the bench can tell when
//                 every single chunk reached the DOM;
//   card-million  emits a log card of a million lines, a thousand lines per output call.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const FLOOD_AGENT = 'card-flood';
export const FLOOD_CARD = 'flood';
export const MILLION_AGENT = 'card-million';
export const MILLION_CARD = 'million';

/** Digits of the chunk number and of the emit time (ms since the epoch) in a flood line. */
const SEQ_DIGITS = 8;
const MS_DIGITS = 13;
/** The text after the numbers: a flood line is about as long as a line of a build or test log. */
export const FLOOD_TEXT = ' tool output: compiled module, 0 warnings, cache hit, took a little while';
/** Short enough that the whole card (24 MB) stays within what a run keeps to replay to a page that opens later. */
const MILLION_LINE = 'row of the 1M-line card';
const MILLION_CHUNKS = 1000;
const MILLION_LINES_PER_CHUNK = 1000;
export const MILLION_LINES = MILLION_CHUNKS * MILLION_LINES_PER_CHUNK;

/** A string as a WAT data literal, every byte escaped. */
const dataLiteral = (text) => [...Buffer.from(text, 'utf8')].map((b) => `\\${b.toString(16).padStart(2, '0')}`).join('');

/** Where a request's JSON lives in the guest's memory; everything the host hands back goes to one fixed page. */
const REQUEST_AT = 1024;
const SCRATCH_PAGE = 65536;

// The host writes each call's answer (and the prompt) through omni_alloc; these agents drop the answers, so every
// allocation may reuse the second page.
const ALLOC = `(func (export "omni_alloc") (param $len i32) (result i32) (i32.const ${SCRATCH_PAGE}))`;

/**
 * The flood agent. It keeps to its schedule (chunk i is due at start + i / rate) without burning a core between
 * chunks: it sleeps with memory.atomic.wait32 on its own shared memory (nobody ever notifies, so the wait is a
 * timed sleep). A spinning agent would take a core from the host and the browser on a small machine. When it falls
 * behind (a held output call, a late wake-up) it sends the overdue chunks at once, so the average rate holds.
 */
export function floodWat({ chunksPerSecond, chunks }) {
  const prefix = `{"content_type":"text/x-log","chunk_id":"${FLOOD_CARD}","data":"`;
  const line = `${'0'.repeat(SEQ_DIGITS)} ${'0'.repeat(MS_DIGITS)}${FLOOD_TEXT}\\n`;
  const request = `${prefix}${line}"}`;
  const seqAt = REQUEST_AT + prefix.length;
  const msAt = seqAt + SEQ_DIGITS + 1;
  const intervalNs = Math.round(1e9 / chunksPerSecond);
  return `(module
  (import "wasi_snapshot_preview1" "clock_time_get" (func $clock (param i32 i64 i32) (result i32)))
  (import "omni" "output" (func $output (param i32 i32) (result i64)))
  (memory (export "memory") 2 2 shared)
  (data (i32.const ${REQUEST_AT}) "${dataLiteral(request)}")
  ${ALLOC}
  ;; clock 0 is wall-clock time, clock 1 monotonic; both in ns.
  (func $now (param $clock i32) (result i64)
    (drop (call $clock (local.get $clock) (i64.const 1000) (i32.const 8)))
    (i64.load (i32.const 8)))
  ;; Writes value into [at, at + width) in decimal, zero-padded.
  (func $digits (param $at i32) (param $width i32) (param $value i64)
    (loop $next
      (local.set $width (i32.sub (local.get $width) (i32.const 1)))
      (i32.store8 (i32.add (local.get $at) (local.get $width)) (i32.add (i32.const 48) (i32.wrap_i64 (i64.rem_u (local.get $value) (i64.const 10)))))
      (local.set $value (i64.div_u (local.get $value) (i64.const 10)))
      (br_if $next (i32.gt_u (local.get $width) (i32.const 0)))))
  (func (export "omni_invoke") (param i32 i32)
    (local $i i32) (local $start i64) (local $due i64) (local $now i64)
    (local.set $start (call $now (i32.const 1)))
    (loop $chunk
      (local.set $due (i64.add (local.get $start) (i64.mul (i64.extend_i32_u (local.get $i)) (i64.const ${intervalNs}))))
      (local.set $now (call $now (i32.const 1)))
      (if (i64.gt_u (local.get $due) (local.get $now))
        (then (drop (memory.atomic.wait32 (i32.const 0) (i32.const 0) (i64.sub (local.get $due) (local.get $now))))))
      (call $digits (i32.const ${seqAt}) (i32.const ${SEQ_DIGITS}) (i64.extend_i32_u (local.get $i)))
      (call $digits (i32.const ${msAt}) (i32.const ${MS_DIGITS}) (i64.div_u (call $now (i32.const 0)) (i64.const 1000000)))
      (drop (call $output (i32.const ${REQUEST_AT}) (i32.const ${Buffer.byteLength(request)})))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $chunk (i32.lt_u (local.get $i) (i32.const ${chunks}))))))`;
}

/** The million-line agent: MILLION_CHUNKS output calls of MILLION_LINES_PER_CHUNK lines each, as fast as it may. */
export function millionWat() {
  const data = `${MILLION_LINE}\\n`.repeat(MILLION_LINES_PER_CHUNK);
  const request = `{"content_type":"text/x-log","chunk_id":"${MILLION_CARD}","data":"${data}"}`;
  if (REQUEST_AT + Buffer.byteLength(request) > SCRATCH_PAGE) throw new Error('the million-line request must fit in the first page');
  return `(module
  (import "omni" "output" (func $output (param i32 i32) (result i64)))
  (memory (export "memory") 2)
  (data (i32.const ${REQUEST_AT}) "${dataLiteral(request)}")
  ${ALLOC}
  (func (export "omni_invoke") (param i32 i32)
    (local $i i32)
    (loop $chunk
      (drop (call $output (i32.const ${REQUEST_AT}) (i32.const ${Buffer.byteLength(request)})))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $chunk (i32.lt_u (local.get $i) (i32.const ${MILLION_CHUNKS}))))))`;
}

/** One flood line back from the card's text: its chunk number and emit time, or null for anything else. */
export function parseFloodLine(line) {
  const seq = Number(line.slice(0, SEQ_DIGITS));
  const emittedAt = Number(line.slice(SEQ_DIGITS + 1, SEQ_DIGITS + 1 + MS_DIGITS));
  return Number.isInteger(seq) && Number.isFinite(emittedAt) && line[SEQ_DIGITS] === ' ' ? { seq, emittedAt } : null;
}

/** Writes both agents into `<home>/agents`, where the host registers user agents when it starts. */
export async function installCardAgents(home, flood) {
  const wabt = await (await import('wabt')).default();
  const install = (name, wat, cpu) => {
    const parsed = wabt.parseWat(`${name}.wat`, wat, { threads: true });
    const binary = parsed.toBinary({}).buffer;
    parsed.destroy();
    const folder = join(home, 'agents', name);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'agent.wasm'), binary);
    writeFileSync(
      join(folder, 'manifest.toml'),
      [
        'schema_version = "0.1"',
        `name = "${name}"`,
        'version = "1.0.0"',
        'entry = "agent.wasm"',
        'sandbox = "wasm"',
        'capabilities = []',
        'oauth_scopes = []',
        `resources.cpu = "${cpu}"`,
        'resources.mem = "1Mi"',
        'ui.hints = ["streaming", "log"]',
        '',
      ].join('\n'),
    );
  };
  install(FLOOD_AGENT, floodWat(flood), '1');
  install(MILLION_AGENT, millionWat(), '1');
}
