// The electron stand-in itself (electronStandIn/): where the shell depends on Electron 45's documented behaviour,
// the stand-in behaves so, or the tests that run the shell against it would prove nothing. Ports: queued until
// start(), 'close' when the remote end goes, transferred once. Utility processes: ready first, parentPort messages
// queued until a listener exists, ports relayed both ways, exit codes. protocol.handle: a Response or a failure.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { build } from 'esbuild';
import { appState } from './electronStandIn/appState';
import { MessageChannelMain, transferPorts, type MessageEventMain } from './electronStandIn/messagePortMain';
import { NetError, Protocol } from './electronStandIn/protocol';
import { PARENT_PORT_SHIM, shimLocation, utilityProcess, type UtilityProcess } from './electronStandIn/utilityProcess';

const nextMessage = (port: { once(event: 'message', listener: (event: MessageEventMain) => void): unknown }) =>
  new Promise<MessageEventMain>((resolve) => port.once('message', resolve));
const exitOf = (child: UtilityProcess) => new Promise<number>((resolve) => child.once('exit', resolve));
const tick = (ms = 50) => new Promise((resolve) => setTimeout(resolve, ms));

describe('MessageChannelMain / MessagePortMain', () => {
  test('messages wait for start(), then arrive as { data, ports }', async () => {
    const { port1, port2 } = new MessageChannelMain();
    const seen: unknown[] = [];
    port2.on('message', (event: MessageEventMain) => seen.push(event.data));
    port1.postMessage('early');
    await tick();
    assert.deepEqual(seen, [], 'nothing before start()');
    port2.start();
    await tick();
    assert.deepEqual(seen, ['early']);
    port1.close();
    port2.close();
  });

  test("'close' is emitted on the remote end only", async () => {
    const { port1, port2 } = new MessageChannelMain();
    let closed1 = 0;
    let closed2 = 0;
    port1.on('close', () => closed1++);
    port2.on('close', () => closed2++);
    port1.close();
    await tick();
    assert.deepEqual([closed1, closed2], [0, 1]);
  });

  test('a port is transferred once; the sender keeps a neutered object', async () => {
    const { port1, port2 } = new MessageChannelMain();
    const [moved] = transferPorts([port1]);
    assert.ok(port1.isNeutered);
    assert.throws(() => transferPorts([port1]), /already neutered/);
    port1.postMessage('ignored: a neutered port sends nothing');
    const got = new Promise((resolve) => moved.once('message', resolve));
    port2.postMessage('to the new owner');
    assert.equal(await got, 'to the new owner');
    moved.close();
  });
});

describe('utilityProcess', () => {
  let dir: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'omni-standin-'));
    shimLocation.path = join(dir, PARENT_PORT_SHIM);
    await build({ entryPoints: [join(import.meta.dirname, 'electronStandIn/parentPortShim.ts')], outfile: shimLocation.path, bundle: true, platform: 'node', format: 'cjs', logLevel: 'warning' });
    // A child that echoes parentPort messages, serves the first port it gets, and exits with the code it is told.
    writeFileSync(
      join(dir, 'child.js'),
      `setTimeout(() => {
        process.parentPort.on('message', ({ data, ports }) => {
          if (data.exit !== undefined) process.exit(data.exit);
          if (ports[0]) { ports[0].on('message', ({ data }) => ports[0].postMessage({ echo: data })); ports[0].start(); }
          process.parentPort.postMessage({ got: data, ports: ports.length });
        });
      }, 200);`,
    );
  });

  after(() => {
    appState.ready = false;
    rmSync(dir, { recursive: true, force: true });
  });

  test('cannot fork before the app is ready', () => {
    appState.ready = false;
    assert.throws(() => utilityProcess.fork(join(dir, 'child.js')), /before app is ready/);
    appState.ready = true;
  });

  test('parentPort queues until a listener exists; ports are relayed both ways, binary frames intact', async () => {
    appState.ready = true;
    const child = utilityProcess.fork(join(dir, 'child.js'), [], { stdio: 'inherit' });
    const { port1, port2 } = new MessageChannelMain();
    // Sent before the child listens (it waits 200 ms): queued, not lost.
    const reply = new Promise((resolve) => child.once('message', resolve));
    child.postMessage({ hello: 1 }, [port2]);
    assert.deepEqual(await reply, { got: { hello: 1 }, ports: 1 });
    assert.ok(port2.isNeutered, 'the transferred port is neutered in the sender');
    port1.start();
    const echoed = nextMessage(port1);
    port1.postMessage(new Uint8Array([1, 2, 3]));
    assert.deepEqual((await echoed).data, { echo: new Uint8Array([1, 2, 3]) });
    // The process ends: its end of the port goes with it, and the main side's port sees 'close'.
    const closed = new Promise((resolve) => port1.once('close', resolve));
    const exited = exitOf(child);
    child.postMessage({ exit: 3 });
    assert.equal(await exited, 3);
    await closed;
    assert.equal(child.pid, undefined, 'no pid after exit');
  });

  test("exit codes: a killed process reports its signal's number; kill() sends SIGTERM", async () => {
    const killed = utilityProcess.fork(join(dir, 'child.js'));
    const killedExit = exitOf(killed);
    process.kill(killed.pid!, 'SIGKILL');
    assert.equal(await killedExit, 9);
    const terminated = utilityProcess.fork(join(dir, 'child.js'));
    const terminatedExit = exitOf(terminated);
    await new Promise((resolve) => terminated.once('spawn', resolve));
    assert.equal(terminated.kill(), true);
    assert.equal(await terminatedExit, 15);
  });
});

describe('protocol.handle', () => {
  test('serves what the handler returns; anything but a Response fails the request; a scheme is handled once', async () => {
    appState.ready = true;
    const protocol = new Protocol();
    protocol.handle('app', (request) => new Response(`${request.method} ${new URL(request.url).pathname}`, { status: 200 }));
    assert.throws(() => protocol.handle('app', () => new Response('')), /Failed to register protocol/);
    assert.equal(await (await protocol.request('app://omni/x', { method: 'HEAD' })).text(), 'HEAD /x');
    protocol.unhandle('app');
    protocol.handle('app', () => 'not a response' as unknown as Response);
    await assert.rejects(protocol.request('app://omni/'), NetError);
    protocol.unhandle('app');
    protocol.handle('app', () => {
      throw new Error('boom');
    });
    await assert.rejects(protocol.request('app://omni/'), /ERR_UNEXPECTED/);
    await assert.rejects(protocol.request('other://x/'), /ERR_UNKNOWN_URL_SCHEME/);
    appState.ready = false;
  });
});
