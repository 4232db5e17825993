import assert from 'node:assert/strict';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '../helpers';
import { callingGuest, type GuestResponse } from './guests';
import { AGENT, invokeInput, sandboxHarness, SESSION } from './harness';

/** A real HTTP server standing for "the outside": it records every request that reaches it, and when. */
async function recordingServer(host: string, handle?: (path: string, res: ServerResponse) => void) {
  const hits: { path: string; at: number; closedAt: number | null }[] = [];
  const server: Server = createServer((req, res) => {
    const hit = { path: req.url ?? '', at: performance.now(), closedAt: null as number | null };
    hits.push(hit);
    res.on('close', () => (hit.closedAt = performance.now()));
    if (handle) handle(req.url ?? '', res);
    else res.end('hello from the outside');
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    hits,
    url: (path = '/') => `http://${host}:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function code(response: GuestResponse): string {
  return response.ok ? 'ok' : response.error.code;
}

describe('network: checked against grants and addresses at every call, aborted on revoke', () => {
  let outside: Awaited<ReturnType<typeof recordingServer>>;
  before(async () => (outside = await recordingServer('127.0.0.1')));
  after(() => outside.close());

  it('refuses a host outside the allowlist, 127.0.0.1 and localhost: nothing reaches the server', async () => {
    const h = sandboxHarness();
    try {
      h.consent.grant(AGENT, SESSION, 'network', 'api.example.org');
      h.consent.grant(AGENT, SESSION, 'network', '127.0.0.1');
      h.consent.grant(AGENT, SESSION, 'network', 'localhost');
      h.consent.grant(AGENT, SESSION, 'network', '::1');
      const port = new URL(outside.url()).port;
      const { agent, responses } = await h.run(
        callingGuest([
          { fn: 'net_fetch', req: { url: `http://127.0.0.2:${port}/not-allowlisted`, method: 'GET' } },
          { fn: 'net_fetch', req: { url: outside.url('/loopback'), method: 'GET' } },
          { fn: 'net_fetch', req: { url: `http://localhost:${port}/by-name`, method: 'GET' } },
          { fn: 'net_fetch', req: { url: `http://[::1]:${port}/v6`, method: 'GET' } },
          { fn: 'net_fetch', req: { url: `file:///etc/passwd`, method: 'GET' } },
        ]),
        ['network'],
        h.dir,
      );
      await agent.invoke(invokeInput());
      // 127.0.0.2 has no grant, but the address policy answers first: nobody is asked about an address that is blocked anyway.
      assert.deepEqual(responses.map(code), ['blocked_address', 'blocked_address', 'blocked_address', 'blocked_address', 'bad_request']);
      assert.match(!responses[1].ok ? responses[1].error.message : '', /127\.0\.0\.1 is a loopback address/);
      assert.deepEqual(outside.hits, [], 'no request reached the server');
      agent.kill();
    } finally {
      h.cleanup();
    }
  });

  it('fetches from an address the user trusts, and checks every redirect hop again', async () => {
    const other = await recordingServer('127.0.0.2');
    const redirecting = await recordingServer('127.0.0.1', (path, res) => {
      if (path === '/away') res.writeHead(302, { location: other.url('/landed') }).end();
      else res.end('ok');
    });
    const h = sandboxHarness({ network: { trustedAddresses: new Set(['127.0.0.1']) } });
    try {
      h.consent.grant(AGENT, SESSION, 'network', null);
      const { agent, responses } = await h.run(
        callingGuest([
          { fn: 'net_fetch', req: { url: redirecting.url('/hello'), method: 'GET' } },
          { fn: 'net_fetch', req: { url: redirecting.url('/away'), method: 'GET' } },
        ]),
        ['network'],
        h.dir,
      );
      await agent.invoke(invokeInput());
      assert.equal(code(responses[0]), 'ok');
      assert.equal(Buffer.from(String(responses[0].ok && responses[0].body_b64), 'base64').toString(), 'ok');
      assert.equal(code(responses[1]), 'blocked_address', 'the redirect to a private address is refused');
      assert.deepEqual(other.hits, []);
      assert.deepEqual(
        h.audited.map((e) => e.payload),
        [{ method: 'GET', url: `${new URL(redirecting.url()).origin}/hello`, status: 200 }],
      );
      agent.kill();
    } finally {
      h.cleanup();
      await other.close();
      await redirecting.close();
    }
  });

  it('aborts a slow request the moment its grant is revoked; the guest gets capability_revoked and nothing more leaves', async () => {
    const slow = await recordingServer('127.0.0.1', (_path, res) => {
      const timer = setTimeout(() => res.end('too late'), 5000);
      res.on('close', () => clearTimeout(timer));
    });
    const h = sandboxHarness({ network: { trustedAddresses: new Set(['127.0.0.1']) } });
    try {
      const grant = h.consent.grant(AGENT, SESSION, 'network', '127.0.0.1');
      const { agent, responses } = await h.run(
        callingGuest([
          { fn: 'net_fetch', req: { url: slow.url('/slow'), method: 'GET' } },
          // A guest that tries again right away, as a careless one would.
          { fn: 'net_fetch', req: { url: slow.url('/retry'), method: 'GET' } },
        ]),
        ['network'],
        h.dir,
      );
      const run = agent.invoke(invokeInput());
      await waitFor(() => slow.hits.length === 1, 'the slow request to reach the server');
      const revokedAt = performance.now();
      h.consent.revoke(grant.id);
      await run;
      assert.deepEqual(responses.map(code), ['capability_revoked', 'capability_revoked']);
      assert.match(!responses[0].ok ? responses[0].error.message : '', /grant ended while the request was in flight; it was aborted: the user revoked "network"/);
      await waitFor(() => slow.hits[0].closedAt !== null, 'the server to see the connection closed');
      assert.ok(slow.hits[0].closedAt! - revokedAt < 200, `the connection closed ${Math.round(slow.hits[0].closedAt! - revokedAt)} ms after the revoke`);
      assert.ok(slow.hits.every((hit) => hit.at <= revokedAt + 200), 'no request reached the server more than 200 ms after the revoke');
      assert.equal(slow.hits.length, 1);
      agent.kill();
    } finally {
      h.cleanup();
      await slow.close();
    }
  });
});
