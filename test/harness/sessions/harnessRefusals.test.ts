// Refusals a user meets before any CLI runs, through the real host: the CLI is not installed where the host looks
// (a configured path that is not there), a headless session without a prompt, a resume of an unknown session.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RpcError } from '../../../src-preload/contract';
import { connectClient, startTestHost } from '../../server/connect';
import { tempDir } from '../../helpers';

test('a missing CLI is refused with how to install it or where to point the host; nothing is stored', async (t) => {
  const saved = process.env.OMNI_CLAUDE_CODE_PATH;
  process.env.OMNI_CLAUDE_CODE_PATH = '/nonexistent/bin/claude';
  const host = await startTestHost();
  const client = await connectClient(host.server);
  const workspace = tempDir('ws');
  t.after(async () => {
    if (saved === undefined) delete process.env.OMNI_CLAUDE_CODE_PATH;
    else process.env.OMNI_CLAUDE_CODE_PATH = saved;
    client.dispose();
    await host.cleanup();
    workspace.cleanup();
  });
  const session = await client.call('session.create', { workspace: workspace.path });
  await assert.rejects(client.call('harness.start', { sessionId: session.id, frontend: 'claude-code', interactionMode: 'interactive' }), (error: unknown) => {
    assert.ok(error instanceof RpcError && error.code === 'UNAVAILABLE');
    assert.equal(
      error.message,
      'Claude Code is not installed where the host can run it: /nonexistent/bin/claude (from OMNI_CLAUDE_CODE_PATH) is not an executable file. Install it (npm install -g @anthropic-ai/claude-code) or set OMNI_CLAUDE_CODE_PATH to the CLI\'s binary, then restart the host. [HARNESS_CLI_MISSING]',
    );
    return true;
  });
  assert.deepEqual(await client.call('harness.list', { sessionId: session.id }), []);

  // The bridge checks the request itself: a headless prompt cannot be empty, an id must look like one.
  await assert.rejects(client.call('harness.start', { sessionId: session.id, frontend: 'codex-cli', interactionMode: 'headless', prompt: '  ' }), (error: unknown) => {
    assert.ok(error instanceof RpcError && error.code === 'INVALID_PARAMS' && /a prompt cannot be empty/.test(error.message));
    return true;
  });
  await assert.rejects(client.call('harness.start', { sessionId: session.id, frontend: 'codex-cli', interactionMode: 'headless' }), (error: unknown) => {
    assert.ok(error instanceof RpcError && error.code === 'INVALID_PARAMS' && /needs a prompt to run; give one, or start it interactive \[HARNESS_PROMPT_REQUIRED\]$/.test(error.message), String(error));
    return true;
  });
  await assert.rejects(client.call('harness.resume', { id: 'hrn_doesnotexist0' }), (error: unknown) => {
    assert.ok(error instanceof RpcError && error.code === 'NOT_FOUND' && /no harness session hrn_doesnotexist0/.test(error.message), String(error));
    return true;
  });
});
