/**
 * The agent's child process: runs one WASM guest and nothing else. Started idle (the warm pool), it waits for the
 * host's `start` with the already checked and capped module. Every omni.* import is forwarded to the host over the
 * call channel and waits there, blocking, for the answer: the host decides everything, against live grants.
 * The guest's stdout/stderr (WASI fd_write) become log frames. Started with an empty environment.
 */
import { readSync, writeSync } from 'node:fs';
import { randomFillSync } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { OMNI_FUNCTIONS, OMNI_MEMORY_IMPORT, OMNI_MODULE, WASI_MODULE, WASM_PAGE_BYTES } from './abi';
import { CALL_CHANNEL_FD, encodeFrame, type FromChild, type Step, type ToChild } from './childProtocol';
import { wasm, type WasmMemory } from './webAssemblyApi';

/** A guest's request may be up to this large (a file write of 8 MiB, base64). */
const MAX_REQUEST_BYTES = 16 * 1024 * 1024;
/**
 * A trap with memory this full of its quota is reported as the quota's doing: an allocator that asks for more than
 * the little left sees memory.grow fail and aborts, often before memory is exactly at the cap.
 */
const NEAR_CAP = 15 / 16;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

function retrying<T>(io: () => T): T {
  for (;;) {
    try {
      return io();
    } catch (error) {
      // The pipe may have been left non-blocking: wait a moment rather than spin.
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      Atomics.wait(sleeper, 0, 0, 1);
    }
  }
}

function send(frame: FromChild): void {
  const bytes = encodeFrame(frame);
  let at = 0;
  while (at < bytes.length) at += retrying(() => writeSync(CALL_CHANNEL_FD, bytes, at, bytes.length - at));
}

function readExactly(length: number): Buffer {
  const buffer = Buffer.allocUnsafe(length);
  let at = 0;
  while (at < length) {
    const n = retrying(() => readSync(CALL_CHANNEL_FD, buffer, at, length - at, null));
    // The host closed the channel: it is gone or done with this agent.
    if (n === 0) process.exit(0);
    at += n;
  }
  return buffer;
}

function callHost(fn: string, req: string): string {
  send({ type: 'call', fn, req });
  return readExactly(readExactly(4).readUInt32BE(0)).toString('utf8');
}

class ProcExit extends Error {
  constructor(readonly code: number) {
    super(`proc_exit(${code})`);
  }
}

interface GuestExports {
  omni_alloc(len: number): number;
  omni_invoke(ptr: number, len: number): void;
  omni_start?(ptr: number, len: number): void;
  omni_shutdown?(): void;
  memory?: WasmMemory;
}

let guest: GuestExports | null = null;
let memory: WasmMemory | null = null;
let maxPages = 0;

const memoryBytes = () => memory?.buffer.byteLength ?? 0;
const decoder = new TextDecoder();

function readGuest(ptr: number, len: number): string | null {
  ptr >>>= 0;
  len >>>= 0;
  if (ptr + len > memoryBytes()) return null;
  return decoder.decode(new Uint8Array(memory!.buffer, ptr, len));
}

/** Copies `text` into memory the guest allocates and packs (ptr << 32) | len. */
function toGuest(text: string): bigint {
  const bytes = Buffer.from(text, 'utf8');
  const ptr = guest!.omni_alloc(bytes.length) >>> 0;
  if (ptr + bytes.length > memoryBytes()) throw new wasm.RuntimeError(`omni_alloc returned ${ptr}, outside the guest's memory`);
  new Uint8Array(memory!.buffer, ptr, bytes.length).set(bytes);
  return (BigInt(ptr) << 32n) | BigInt(bytes.length);
}

const refuse = (code: string, message: string, hint: string) => JSON.stringify({ ok: false, error: { code, message, hint } });

function omniImports(): Record<string, unknown> {
  const imports: Record<string, unknown> = {};
  for (const fn of Object.keys(OMNI_FUNCTIONS)) {
    imports[fn] = (ptr: number, len: number): bigint => {
      if (len >>> 0 > MAX_REQUEST_BYTES) return toGuest(refuse('too_large', `the request is ${len >>> 0} bytes, over ${MAX_REQUEST_BYTES}`, 'send less per call'));
      const req = readGuest(ptr, len);
      if (req === null) return toGuest(refuse('bad_request', 'the request lies outside the guest memory', 'pass a pointer and length into memory'));
      return toGuest(callHost(fn, req));
    };
  }
  return imports;
}

function wasiImports(): Record<string, unknown> {
  const view = () => new DataView(memory!.buffer);
  const SUCCESS = 0;
  const EBADF = 8;
  const EINVAL = 28;
  return {
    fd_write(fd: number, iovs: number, count: number, written: number): number {
      if (fd !== 1 && fd !== 2) return EBADF;
      const parts: Uint8Array[] = [];
      let total = 0;
      for (let i = 0; i < count; i++) {
        const base = view().getUint32(iovs + i * 8, true);
        const len = view().getUint32(iovs + i * 8 + 4, true);
        if (base + len > memoryBytes()) return EINVAL;
        parts.push(new Uint8Array(memory!.buffer, base, len).slice());
        total += len;
      }
      send({ type: 'log', stream: fd === 1 ? 'stdout' : 'stderr', text: Buffer.concat(parts).toString('utf8') });
      view().setUint32(written, total, true);
      return SUCCESS;
    },
    clock_time_get(id: number, _precision: bigint, out: number): number {
      const ns = id === 0 ? BigInt(Date.now()) * 1_000_000n : process.hrtime.bigint();
      view().setBigUint64(out, ns, true);
      return SUCCESS;
    },
    random_get(ptr: number, len: number): number {
      if (ptr + len > memoryBytes()) return EINVAL;
      randomFillSync(new Uint8Array(memory!.buffer, ptr, len));
      return SUCCESS;
    },
    proc_exit(code: number): never {
      throw new ProcExit(code);
    },
    environ_sizes_get: (count: number, size: number) => (view().setUint32(count, 0, true), view().setUint32(size, 0, true), SUCCESS),
    environ_get: () => SUCCESS,
    args_sizes_get: (count: number, size: number) => (view().setUint32(count, 0, true), view().setUint32(size, 0, true), SUCCESS),
    args_get: () => SUCCESS,
  };
}

function passString(text: string, run: (ptr: number, len: number) => void): void {
  const packed = toGuest(text);
  run(Number(packed >> 32n), Number(packed & 0xffffffffn));
}

function runStep(step: Step, work: () => void): void {
  try {
    work();
    send({ type: 'done', step });
  } catch (error) {
    if (error instanceof ProcExit) send({ type: 'exit', step, code: error.code });
    else if (error instanceof wasm.RuntimeError || error instanceof RangeError) {
      send({ type: 'trap', step, message: error.message, atMemoryCap: memory !== null && memoryBytes() >= NEAR_CAP * maxPages * WASM_PAGE_BYTES, memoryBytes: memoryBytes() });
    } else send({ type: 'failed', step, message: error instanceof Error ? error.message : String(error) });
  }
}

function start(message: Extract<ToChild, { type: 'start' }>): void {
  runStep('start', () => {
    maxPages = message.maxPages;
    const omni = omniImports();
    if (message.memoryImport) {
      memory = new wasm.Memory({ initial: message.memoryImport.initialPages, maximum: message.memoryImport.maximumPages });
      omni[OMNI_MEMORY_IMPORT] = memory;
    }
    const module = new wasm.Module(message.module);
    const instance = new wasm.Instance(module, { [OMNI_MODULE]: omni, [WASI_MODULE]: wasiImports() });
    guest = instance.exports as unknown as GuestExports;
    memory ??= guest.memory ?? null;
    if (guest.omni_start) passString(message.ctx, (ptr, len) => guest!.omni_start!(ptr, len));
  });
}

process.on('message', (message: ToChild) => {
  if (message.type === 'start') start(message);
  else if (message.type === 'invoke') runStep('invoke', () => passString(message.input, (ptr, len) => guest!.omni_invoke(ptr, len)));
  else if (message.type === 'shutdown') {
    runStep('shutdown', () => guest?.omni_shutdown?.());
    process.exit(0);
  }
});
process.on('disconnect', () => process.exit(0));

/**
 * While the guest runs, this thread is busy inside it and hears nothing, not even the host going away. A small
 * watcher thread does: when this process is orphaned (the host crashed or was killed) it ends the whole process,
 * so a runaway guest never outlives the host.
 */
function watchForOrphaning(): void {
  const watcher = new Worker(
    `const parent = ${process.ppid};
     setInterval(() => { if (process.ppid !== parent) process.kill(${process.pid}, 'SIGKILL'); }, 250);`,
    { eval: true, resourceLimits: { maxOldGenerationSizeMb: 8 } },
  );
  watcher.unref();
}

watchForOrphaning();
send({ type: 'ready' });
