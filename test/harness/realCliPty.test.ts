// Integration: an interactive spec, spawned in a PTY through the host's own PtyProcess as the host will, opens the
// REAL CLI straight on its prompt: no onboarding, trust, API-key or sign-in screen (each would wait for a key
// forever). Needs the CLIs from scripts/install-harness-clis.mjs (skipped otherwise); the model endpoint is a
// closed local port, nothing is sent anywhere.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildProcessInvocationSpec, type ProcessInvocationSpec } from '../../src-main/node/harness';
import { harnessDirs, request } from './harnessFixtures';
import { baseEnv, claude, codex, PtyScreen, skipWithoutClis as skip } from './realClis';

async function screenOf(spec: ProcessInvocationSpec, home: string, until: RegExp): Promise<string> {
  const screen = new PtyScreen(spec, baseEnv(home));
  try {
    return await screen.waitFor(until);
  } finally {
    await screen.close();
  }
}

test('real Claude Code in a PTY opens on its prompt in the workspace, asking mode, no dialog first', { skip }, async (t) => {
  const dirs = harnessDirs(t);
  const home = join(dirs.root, 'user-home');
  mkdirSync(home);
  const { spec } = buildProcessInvocationSpec(
    request('claude-code', dirs, { env: { ANTHROPIC_API_KEY: 'omni-stand-in-0123456789abcdefghij', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' } }),
    { executable: claude },
  );
  const screen = await screenOf(spec, home, /manual mode on/);
  assert.match(screen, /Claude Code v2\.1\.330/);
  assert.ok(screen.includes(dirs.workspace.replace(/\s+/g, ' ')), screen.slice(-800));
  assert.doesNotMatch(screen, /Do you trust|Detected a custom API key|Choose the text style/);
});

test('real Codex in a PTY opens on its prompt with the harness provider, no sign-in or trust screen', { skip }, async (t) => {
  const dirs = harnessDirs(t);
  const home = join(dirs.root, 'user-home');
  mkdirSync(home);
  const { spec } = buildProcessInvocationSpec(request('codex-cli', dirs, { env: { OPENAI_API_KEY: 'omni-stand-in' } }), {
    executable: codex,
    openaiEndpoint: { baseUrl: 'http://127.0.0.1:9/v1' },
  });
  const screen = await screenOf(spec, home, /Ask Codex to do anything/);
  assert.doesNotMatch(screen, /Sign in with ChatGPT|Do you trust/);
  assert.equal(existsSync(join(home, '.codex')), false, "the user's ~/.codex is not touched");
});
