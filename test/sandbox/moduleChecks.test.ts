import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readModuleShape } from '../../src-main/node/sandbox/wasm/moduleShape';
import { prepareModule } from '../../src-main/node/sandbox/wasm/prepareModule';
import { ModuleRefusedError } from '../../src-main/node/sandbox/wasm/sandboxErrors';
import { callingGuest, guestWith, wat } from './guests';

const MiB = 1024 * 1024;

function refusal(fn: () => unknown): ModuleRefusedError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof ModuleRefusedError, `expected ModuleRefusedError, got ${String(error)}`);
    return error;
  }
  assert.fail('the module was accepted');
}

describe('modules are checked before they run', () => {
  it('refuses an omni import whose capability the manifest does not declare, naming the import', async () => {
    const bytes = await wat(callingGuest([{ fn: 'net_fetch', req: { url: 'https://example.org/' } }]));
    const error = refusal(() => prepareModule(bytes, ['files.read'], 16 * MiB));
    assert.equal(error.code, 'not_declared');
    assert.equal(error.problems[0].subject, 'omni.net_fetch');
    assert.match(error.message, /omni\.net_fetch.*"network".*does not declare/);
  });

  it('refuses imports outside ABI v1 (another module, an unlisted WASI call) and lists every one', async () => {
    const bytes = await wat(
      guestWith('nop', `(import "env" "abort" (func (param i32 i32 i32 i32)))
        (import "wasi_snapshot_preview1" "path_open" (func (param i32 i32 i32 i32 i32 i64 i64 i32 i32) (result i32)))`),
    );
    const error = refusal(() => prepareModule(bytes, [], 16 * MiB));
    assert.deepEqual(
      error.problems.map((p) => [p.code, p.subject]),
      [
        ['unknown_import', 'env.abort'],
        ['unknown_import', 'wasi_snapshot_preview1.path_open'],
      ],
    );
  });

  it('refuses an omni import with the wrong signature and a module without omni_invoke', async () => {
    const bytes = await wat(`(module (import "omni" "output" (func (param i32))) (memory (export "memory") 1)
      (func (export "omni_alloc") (param i32) (result i32) (i32.const 0)))`);
    const error = refusal(() => prepareModule(bytes, [], 16 * MiB));
    assert.deepEqual(error.problems.map((p) => p.code), ['bad_signature', 'missing_export']);
  });

  it('refuses bytes that are not WebAssembly', () => {
    const error = refusal(() => prepareModule(new TextEncoder().encode('#!/bin/sh\nrm -rf /'), [], 16 * MiB));
    assert.equal(error.code, 'invalid_module');
  });

  it("caps the module's own unbounded memory at the quota by rewriting its maximum", async () => {
    const bytes = await wat(guestWith('nop'));
    assert.equal(readModuleShape(bytes).memories[0].max, null, 'the guest declares no maximum: it could grow to 4 GiB');
    const capped = prepareModule(bytes, [], 512 * MiB);
    assert.equal(readModuleShape(capped.bytes).memories[0].max, 8192n);
    assert.equal(capped.maxPages, 8192);
  });

  it('lowers a maximum above the quota, keeps one below it, and refuses a module that starts above it', async () => {
    const over = prepareModule(await wat(guestWith('nop').replace('(memory (export "memory") 2)', '(memory (export "memory") 2 65536)')), [], 16 * MiB);
    assert.equal(readModuleShape(over.bytes).memories[0].max, 256n);
    const under = prepareModule(await wat(guestWith('nop').replace('(memory (export "memory") 2)', '(memory (export "memory") 2 10)')), [], 16 * MiB);
    assert.equal(readModuleShape(under.bytes).memories[0].max, 10n);
    const big = await wat(guestWith('nop').replace('(memory (export "memory") 2)', '(memory (export "memory") 300)'));
    const error = refusal(() => prepareModule(big, [], 16 * MiB));
    assert.equal(error.code, 'memory_quota');
    assert.match(error.message, /raise resources\.mem/);
  });

  it('caps an imported omni.memory too', async () => {
    const bytes = await wat(callingGuest([{ fn: 'output', req: { content_type: 'text/plain', data: 'x' } }], { memory: '(import "omni" "memory" (memory 2))' }));
    const capped = prepareModule(bytes, [], 16 * MiB);
    const imported = readModuleShape(capped.bytes).imports.find((i) => i.kind === 'memory');
    assert.ok(imported && imported.kind === 'memory');
    assert.equal(imported.limits.max, 256n);
    assert.deepEqual(capped.memoryImport, { initialPages: 2, maximumPages: 256 });
  });
});

describe('frames between the host and an agent process', () => {
  it('come back whole however the bytes are cut, and an oversized one is refused', async () => {
    const { encodeFrame, FrameReader } = await import('../../src-main/node/sandbox/wasm/childProtocol');
    const big = { fn: 'files_write', req: 'x'.repeat(300_000) };
    const bytes = Buffer.concat([encodeFrame({ a: 1 }), encodeFrame(big), encodeFrame({ b: 'é' })]);
    for (const piece of [1, 3, 7, 65_536]) {
      const reader = new FrameReader(1024 * 1024);
      const frames: unknown[] = [];
      for (let at = 0; at < bytes.length; at += piece) frames.push(...reader.push(bytes.subarray(at, at + piece)).map((f) => JSON.parse(f)));
      assert.deepEqual(frames, [{ a: 1 }, big, { b: 'é' }], `cut every ${piece} bytes`);
    }
    assert.throws(() => new FrameReader(100).push(encodeFrame(big)), /over the 100 allowed/);
  });
});
