// Integration: the argv built here is accepted by the REAL CLIs (installed on demand by
// scripts/install-harness-clis.mjs into .cache/harness-clis; skipped when absent). The model endpoint is a closed
// local port, so no turn completes: what is checked is what each CLI reports before it calls a model, the
// conversation id that becomes the continuation key, and where Claude Code keeps the transcript a resume needs.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { test } from 'node:test';
import { buildProcessInvocationSpec, harnessStdio, isUuid, type ProcessInvocationSpec } from '../../src-main/node/harness';
import { waitFor } from '../helpers';
import { harnessDirs, request } from './harnessFixtures';

const modules = resolve(__dirname, '../../.cache/harness-clis/node_modules');
const claude = join(modules, `@anthropic-ai/claude-code-${process.platform}-${process.arch}`, 'claude');
const codexTriple = process.arch === 'arm64' ? 'aarch64-unknown-linux-musl' : 'x86_64-unknown-linux-musl';
const codex = join(modules, `@openai/codex-${process.platform}-${process.arch}`, 'vendor', codexTriple, 'bin', 'codex');
const skip = !existsSync(claude) || !existsSync(codex) ? 'run `node scripts/install-harness-clis.mjs` first' : false;

/** Spawns the spec as the host would (argv, cwd, env merged over a minimal base) and returns the first JSON line matching `pick`. */
async function firstEvent(spec: ProcessInvocationSpec, home: string, pick: (event: Record<string, unknown>) => boolean, alsoWaitFor: () => boolean = () => true) {
  const stdio = harnessStdio(spec);
  assert.equal(stdio.kind, 'spawn');
  const [command, ...args] = spec.argv;
  const child = spawn(command, args, {
    cwd: spec.cwd,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      ANTHROPIC_API_KEY: 'sk-test-not-a-key',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
      OPENAI_API_KEY: 'sk-test-not-a-key',
      OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      ...spec.env,
    },
    stdio: stdio.kind === 'spawn' ? stdio.stdio : 'pipe',
  });
  const exited = new Promise((resolve) => child.once('close', resolve));
  let found: Record<string, unknown> | undefined;
  createInterface({ input: child.stdout! }).on('line', (line) => {
    try {
      const event = JSON.parse(line) as Record<string, unknown>;
      if (!found && pick(event)) found = event;
    } catch {
      // not a JSON line
    }
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    return await waitFor(() => (found && alsoWaitFor() ? found : undefined), `the first event of ${command}`, 60_000);
  } catch (error) {
    throw new Error(`${(error as Error).message}; stderr: ${stderr.slice(0, 2000)}`);
  } finally {
    // Killed and reaped before the temp dirs are removed: the CLIs keep writing into their homes while they run.
    child.kill('SIGKILL');
    await exited;
  }
}

test('real Claude Code accepts the headless argv, runs under the announced session id in the workspace, and its transcript makes the next spec --resume', { skip }, async (t) => {
  const dirs = harnessDirs(t);
  const home = join(dirs.root, 'user-home');
  mkdirSync(home);
  const { spec } = buildProcessInvocationSpec(request('claude-code', dirs, { interactionMode: 'headless', ioMode: 'pipes' }), { executable: claude, prompt: '-say hi' });
  // Where Claude Code 2.1.330 keeps the conversation: <CLAUDE_CONFIG_DIR>/projects/<cwd, non-alnum as "-">/<id>.jsonl.
  const transcript = join(spec.env.CLAUDE_CONFIG_DIR, 'projects', dirs.workspace.replace(/[^a-zA-Z0-9]/g, '-'), `${spec.continuation?.key}.jsonl`);
  const init = await firstEvent(spec, home, (e) => e.type === 'system' && e.subtype === 'init', () => existsSync(transcript));
  assert.equal(init.session_id, spec.continuation?.key);
  assert.equal(init.cwd, dirs.workspace);
  assert.equal(existsSync(join(home, '.claude')), false, "the user's ~/.claude is not touched");

  const resumed = buildProcessInvocationSpec(request('claude-code', dirs, { continuation: spec.continuation }), { executable: claude });
  assert.deepEqual(resumed.spec.argv.slice(0, 3), [claude, '--resume', spec.continuation!.key!]);
  const elsewhere = join(dirs.root, 'elsewhere');
  mkdirSync(elsewhere);
  assert.throws(() => buildProcessInvocationSpec(request('claude-code', dirs, { cwd: elsewhere, continuation: spec.continuation })), { code: 'HARNESS_RESUME_CWD_MISMATCH' });
});

test('real Codex accepts the headless argv and reports a UUID thread id (the continuation key) first', { skip }, async (t) => {
  const dirs = harnessDirs(t);
  const home = join(dirs.root, 'user-home');
  mkdirSync(home);
  const { spec } = buildProcessInvocationSpec(request('codex-cli', dirs, { interactionMode: 'headless', ioMode: 'pipes' }), { executable: codex, prompt: '-say hi' });
  const started = await firstEvent(spec, home, (e) => e.type === 'thread.started');
  assert.equal(typeof started.thread_id, 'string');
  assert.ok(isUuid(started.thread_id as string), `thread id ${String(started.thread_id)} is a UUID, so it passes the resume check`);
  assert.equal(existsSync(join(home, '.codex')), false, "the user's ~/.codex is not touched");
  // The id it reported resumes through `codex exec resume`.
  const resumed = buildProcessInvocationSpec(request('codex-cli', dirs, { interactionMode: 'headless', ioMode: 'pipes', continuation: { provider: 'openai', key: started.thread_id as string } }), {
    executable: codex,
    prompt: 'again',
  });
  assert.deepEqual(resumed.spec.argv.slice(1, 3), ['exec', 'resume']);
});
