// Integration: an interactive spec, spawned in a PTY through the host's own PtyProcess as the host will, opens the
// REAL CLI straight on its prompt: no onboarding, trust, API-key or sign-in screen (each would wait for a key
// forever). Needs the CLIs from scripts/install-harness-clis.mjs (skipped otherwise); the model endpoint is a
// closed local port, nothing is sent anywhere.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { buildProcessInvocationSpec, type ProcessInvocationSpec } from '../../src-main/node/harness';
import { PtyProcess } from '../../src-main/node/terminals/ptyProcess';
import { waitFor } from '../helpers';
import { harnessDirs, request } from './harnessFixtures';

const modules = resolve(__dirname, '../../.cache/harness-clis/node_modules');
const claude = join(modules, `@anthropic-ai/claude-code-${process.platform}-${process.arch}`, 'claude');
const codexTriple = process.arch === 'arm64' ? 'aarch64-unknown-linux-musl' : 'x86_64-unknown-linux-musl';
const codex = join(modules, `@openai/codex-${process.platform}-${process.arch}`, 'vendor', codexTriple, 'bin', 'codex');
const skip = !existsSync(claude) || !existsSync(codex) ? 'run `node scripts/install-harness-clis.mjs` first' : false;

const OSC = new RegExp(String.raw`\x1b\][^\x07\x1b]*(\x07|\x1b\\)`, 'g');
const CSI = new RegExp(String.raw`\x1b\[[0-9;?<>=]*[A-Za-z]`, 'g');
const SHORT_ESCAPE = new RegExp(String.raw`\x1b[78=>]`, 'g');

/** The screen text without escape sequences, with runs of spaces collapsed (the TUIs position words one by one). */
function plain(output: string): string {
  return output.replace(OSC, '').replace(CSI, ' ').replace(SHORT_ESCAPE, '').replace(/\s+/g, ' ');
}

async function screenOf(spec: ProcessInvocationSpec, home: string, until: RegExp): Promise<string> {
  const [shell, ...args] = spec.argv;
  const pty = new PtyProcess({
    shell,
    args,
    cwd: spec.cwd,
    cols: 120,
    rows: 40,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, TERM: 'xterm-256color', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', ...spec.env },
  });
  let output = '';
  pty.onDidData((data) => (output += data));
  try {
    await waitFor(() => until.test(plain(output)), `${until} on the screen`, 60_000).catch((error: Error) => {
      throw new Error(`${error.message}; the screen said: ${plain(output).slice(-1500)}`);
    });
    return plain(output);
  } finally {
    await pty.kill();
    pty.dispose();
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
