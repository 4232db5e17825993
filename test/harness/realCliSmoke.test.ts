// Integration: the argv built here is accepted by the REAL CLIs (installed on demand by
// scripts/install-harness-clis.mjs into .cache/harness-clis; skipped when absent). The model endpoint is a closed
// local port, so no turn completes: what is checked is what each CLI reports before it calls a model, the
// conversation id that becomes the continuation key, and where Claude Code keeps the transcript a resume needs.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildProcessInvocationSpec, isUuid } from '../../src-main/node/harness';
import { harnessDirs, request } from './harnessFixtures';
import { baseEnv, claude, codex, firstEvent, skipWithoutClis as skip } from './realClis';

/** Closed local ports for both APIs: no turn completes, nothing leaves the machine. */
function closedEndpointEnv(home: string): Record<string, string> {
  return {
    ...baseEnv(home),
    ANTHROPIC_API_KEY: 'sk-test-not-a-key',
    ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
    OPENAI_API_KEY: 'sk-test-not-a-key',
    OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
  };
}

test('real Claude Code accepts the headless argv, runs under the announced session id in the workspace, and its transcript makes the next spec --resume', { skip }, async (t) => {
  const dirs = harnessDirs(t);
  const home = join(dirs.root, 'user-home');
  mkdirSync(home);
  const { spec } = buildProcessInvocationSpec(request('claude-code', dirs, { interactionMode: 'headless', ioMode: 'pipes' }), { executable: claude, prompt: '-say hi' });
  // Where Claude Code 2.1.330 keeps the conversation: <CLAUDE_CONFIG_DIR>/projects/<cwd, non-alnum as "-">/<id>.jsonl.
  const transcript = join(spec.env.CLAUDE_CONFIG_DIR, 'projects', dirs.workspace.replace(/[^a-zA-Z0-9]/g, '-'), `${spec.continuation?.key}.jsonl`);
  const init = await firstEvent(spec, closedEndpointEnv(home), (e) => e.type === 'system' && e.subtype === 'init', () => existsSync(transcript));
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
  const started = await firstEvent(spec, closedEndpointEnv(home), (e) => e.type === 'thread.started');
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
