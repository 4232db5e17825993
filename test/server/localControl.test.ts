// The endpoint a host without a web server (Electron's) opens for the omni CLI: announced in host.json, the contract
// for a client with the home's token, nothing for a browser page.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { contract } from '../../src-preload/contract';
import { RpcClient } from '../../src-preload/rpc';
import { createHostServices } from '../../src-main/node/hostServices';
import { startLocalControl } from '../../src-main/server/localControl';
import { WebSocketTransport } from '../../src-main/server/webSocketTransport';
import { tempDir } from '../helpers';
import { openSocket } from './connect';

test('the omni CLI endpoint: host.json (0600) names it, the token opens the contract, a browser origin is refused, closing removes the file', async (t) => {
  const home = tempDir('home');
  const services = await createHostServices({ home: home.path, version: '0.0.0-test', keychain: 'off' });
  const control = await startLocalControl(home.path, services);
  t.after(async () => {
    await control.close();
    await services.dispose();
    home.cleanup();
  });
  const file = join(home.path, 'host.json');
  assert.equal(statSync(file).mode & 0o777, 0o600);
  const announced = JSON.parse(readFileSync(file, 'utf8')) as { port: number; token: string; pid: number };
  assert.equal(announced.port, control.port);
  assert.equal(announced.pid, process.pid);

  const ws = await openSocket(control.port, `?token=${announced.token}`);
  const client = new RpcClient(contract, new WebSocketTransport(ws));
  const info = await client.call('host.info', {});
  assert.equal(info.home, home.path);
  client.dispose();

  await assert.rejects(openSocket(control.port, '?token=wrong'), /HTTP 401/);
  await assert.rejects(openSocket(control.port, `?token=${announced.token}`, { origin: `http://127.0.0.1:${control.port}` }), /HTTP 403/);
  const page = await fetch(`http://127.0.0.1:${control.port}/`);
  assert.equal(page.status, 404);

  await control.close();
  assert.equal(existsSync(file), false);
});
