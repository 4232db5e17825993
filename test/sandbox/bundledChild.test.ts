import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { build } from 'esbuild';
import { tempDir } from '../helpers';
import { callingGuest } from './guests';
import { invokeInput, sandboxHarness } from './harness';

describe('the shipped child process (the bundle the build makes)', () => {
  let h: ReturnType<typeof sandboxHarness>;
  const dir = tempDir('child-bundle');
  before(async () => {
    const script = join(dir.path, 'wasmAgentChild.cjs');
    await build({ entryPoints: [join(__dirname, '../../src-main/node/sandbox/wasm/childEntry.ts')], outfile: script, bundle: true, format: 'cjs', platform: 'node', target: ['node20'], logLevel: 'warning' });
    h = sandboxHarness({ warmProcesses: 1, childScript: script });
  });
  after(() => {
    h.cleanup();
    dir.cleanup();
  });

  it('runs an agent under Node\'s permission model: no file reads beyond its script, no processes', async () => {
    const { agent } = await h.run(callingGuest([{ fn: 'output', req: { content_type: 'text/plain', data: 'from the bundle' } }]), [], h.dir);
    const seen: string[] = [];
    agent.calls.onOutput((c) => seen.push(c.data));
    await agent.invoke(invokeInput());
    assert.deepEqual(seen, ['from the bundle']);
    const argv = readFileSync(`/proc/${agent.pid}/cmdline`, 'utf8').split('\0');
    assert.ok(argv.includes('--experimental-permission'), argv.join(' '));
    assert.ok(argv.some((a) => a.startsWith('--allow-fs-read=') && a.endsWith('wasmAgentChild.cjs')));
    const environ = readFileSync(`/proc/${agent.pid}/environ`, 'utf8').split('\0').filter(Boolean);
    assert.deepEqual(environ.filter((v) => !v.startsWith('NODE_CHANNEL_')), [], "none of the host's environment, only Node's IPC channel");
    agent.kill();
  });
});
