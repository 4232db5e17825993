// src-main/electron-main run for real, against the electron stand-in (electronStandIn/): what the window's page
// gets. app:// serves the build with its security headers and nothing outside it; only the top frame of our own
// page in our own window gets a port; no navigation, no new windows, no permissions but clipboard writes; closing
// the last window quits the app and stops the host. One app process carries all of it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { RENDERER_CONTENT_SECURITY_POLICY } from '../../src-main/electron-main/contentSecurityPolicy';
import { buildShell, descendantsOf, FAKE_RENDERER_HTML, FAKE_RENDERER_JS, isAlive, makeHomes, SECRET_TEXT, startApp, type AppProcess, type ShellBuild } from './shellRun/shellHarness';

interface Fetched {
  status: number;
  headers: Record<string, string>;
  body: string;
}

describe("the Electron shell's page, run against the electron stand-in", { timeout: 90_000 }, () => {
  let shell: ShellBuild;
  let homes: ReturnType<typeof makeHomes>;
  let app: AppProcess;

  before(async () => {
    shell = await buildShell();
    homes = makeHomes();
    app = startApp(shell, homes.home, homes.userHome);
    await app.waitFor('the page connected', async () => (await app.state()).windows[0]?.connected);
  });

  after(() => {
    app?.kill();
    shell?.dispose();
    homes?.dispose();
  });

  const fetchApp = (url: string, method = 'GET') => app.command<Fetched>({ cmd: 'fetch', url, method });

  test('the window loads app://omni/index.html through the protocol handler, with the CSP header', async () => {
    const [window] = (await app.state()).windows;
    assert.equal(window.url, 'app://omni/index.html');
    assert.equal(window.loads.length, 1);
    assert.equal(window.loads[0].status, 200);
    assert.equal(window.loads[0].headers['content-security-policy'], RENDERER_CONTENT_SECURITY_POLICY);
    const { privilegedSchemes } = await app.state();
    assert.deepEqual(privilegedSchemes, [{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } }]);
  });

  test('app:// serves the build, with the security headers on every response', async () => {
    const script = await fetchApp('app://omni/app.js');
    assert.equal(script.status, 200);
    assert.equal(script.body, FAKE_RENDERER_JS);
    assert.match(script.headers['content-type'], /javascript/);
    assert.equal(script.headers['x-content-type-options'], 'nosniff');
    assert.equal(script.headers['content-security-policy'], RENDERER_CONTENT_SECURITY_POLICY);
    for (const url of ['app://omni/', 'app://omni/sessions/some-view']) {
      const page = await fetchApp(url);
      assert.equal(page.status, 200, url);
      assert.equal(page.body, FAKE_RENDERER_HTML, `${url} is the single-page app's index.html`);
    }
    const head = await fetchApp('app://omni/app.js', 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.body, '');
  });

  for (const url of [
    'app://omni/..%2fsecret.txt',
    'app://omni/%2e%2e/secret.txt',
    'app://omni/assets/..%5c..%5csecret.txt',
    'app://omni/%2e%2e%2f%2e%2e%2fsecret.txt',
    'app://omni/leak.txt',
    'app://omni/%00',
    'app://other/index.html',
  ]) {
    test(`app:// refuses ${url}`, async () => {
      const response = await fetchApp(url);
      assert.notEqual(response.status, 200);
      assert.notEqual(response.body, SECRET_TEXT);
      assert.equal(response.headers['content-security-policy'], RENDERER_CONTENT_SECURITY_POLICY, 'refusals carry the CSP too');
    });
  }

  test('app:// answers other methods with 405', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS']) {
      assert.equal((await fetchApp('app://omni/index.html', method)).status, 405, method);
    }
  });

  test('only the top frame of our own page in our own window gets a port', async () => {
    for (const from of ['iframe', 'other-page', 'foreign-window'] as const) {
      assert.equal(await app.command({ cmd: 'ready-from', from }), 0, `${from} got a port`);
    }
    // The foreign window's page asks once by itself when it loads (as the preload does) and once more here.
    assert.equal(app.log().match(/\[main\] refused a port request/g)?.length, 4, app.log());
    const [window] = (await app.state()).windows;
    assert.equal(window.portsReceived, 1, 'our page kept its one port');
    assert.deepEqual(await app.command({ cmd: 'call', method: 'session.list', params: {} }), []);
  });

  test('a reloaded page asks again and gets a fresh port that works', async () => {
    await app.command({ cmd: 'reload' });
    await app.waitFor('the second port', async () => {
      const [window] = (await app.state()).windows;
      return window.portsReceived === 2 && window.connected;
    });
    assert.deepEqual(await app.command({ cmd: 'call', method: 'session.list', params: {} }), []);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const [window] = (await app.state()).windows;
    assert.equal(window.portsReceived, 2, 'one port per load, no more');
    assert.equal(window.loads.length, 2);
  });

  test('the page cannot navigate or open windows; http(s) links go to the system browser', async () => {
    assert.equal(await app.command({ cmd: 'navigate', url: 'https://example.com/' }), false);
    assert.equal(await app.command({ cmd: 'open-window', url: 'https://example.com/docs' }), 'deny');
    assert.equal(await app.command({ cmd: 'open-window', url: 'file:///etc/passwd' }), 'deny');
    const opened = app.records.filter((r) => r.kind === 'open-external');
    assert.deepEqual(opened, [{ kind: 'open-external', url: 'https://example.com/docs' }]);
    assert.equal((await app.state()).windows[0].url, 'app://omni/index.html');
  });

  test('permissions: clipboard writes for our top frame only, nothing else', async () => {
    const ask = (permission: string, requestingUrl: string, isMainFrame: boolean) =>
      app.command<{ requested: boolean; checked: boolean }>({ cmd: 'permission', permission, requestingUrl, isMainFrame });
    assert.deepEqual(await ask('clipboard-sanitized-write', 'app://omni/index.html', true), { requested: true, checked: true });
    assert.deepEqual(await ask('clipboard-sanitized-write', 'app://omni/index.html', false), { requested: false, checked: false });
    assert.deepEqual(await ask('media', 'app://omni/index.html', true), { requested: false, checked: false });
    assert.deepEqual(await ask('clipboard-read', 'app://omni/index.html', true), { requested: false, checked: false });
  });

  test('closing the last window quits the app, stops the host and leaves no process', async () => {
    const hostPid = (await app.state()).utilityPids[0];
    const started = descendantsOf(app.pid);
    assert.ok(started.includes(hostPid));
    await app.command({ cmd: 'close-window' });
    assert.deepEqual(await app.exited, { code: 0, signal: null }, app.log());
    assert.ok(app.records.some((r) => r.kind === 'utility-exit' && r.pid === hostPid && r.code === 0), JSON.stringify(app.records));
    const deadline = Date.now() + 5_000;
    while (started.some(isAlive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(started.filter(isAlive), []);
  });
});
