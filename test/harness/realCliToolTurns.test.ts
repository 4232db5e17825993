// Integration: tool calls through the REAL CLIs. The mock model (test/mockProviders) asks for a tool; the CLI runs
// it (or refuses it) under the permissions buildProcessInvocationSpec chose, and sends the result back, which the
// mock records. Proves the mocks' tool-call streams are what real clients execute, and the harness's headless
// permission choices hold: Claude Code without a prompt tool denies what would ask (--permission-prompts none);
// Codex runs its command in its sandbox, which needs a CODEX_HOME outside the temp folder (the warning's trap).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildProcessInvocationSpec } from '../../src-main/node/harness';
import { conversationOf, lastUserText, type MockScript, startMockProvider } from '../mockProviders';
import { harnessDirs, request } from './harnessFixtures';
import { baseEnv, claude, codex, runHeadless, skipWithoutClis as skip } from './realClis';

/** Asks for `tools[last user text]`, then answers with what the tool returned. */
function toolScript(tools: Record<string, { name: string; input: Record<string, unknown> }>): MockScript {
  return (request) => {
    const last = conversationOf(request).at(-1);
    if (last?.role === 'tool') return { text: `tool said: ${last.text}` };
    const call = tools[lastUserText(request) ?? ''];
    return call ? { toolCalls: [call] } : { text: 'no tool for that' };
  };
}

function workspaceWithNotes(t: Parameters<typeof harnessDirs>[0]) {
  const dirs = harnessDirs(t);
  const home = join(dirs.root, 'user-home');
  mkdirSync(home);
  writeFileSync(join(dirs.workspace, 'notes.txt'), 'the secret word is pelican\n');
  return { dirs, home };
}

test('real Claude Code runs the Read the mock asks for and returns the file; a Bash command that would ask is denied headless, nothing runs', { skip }, async (t) => {
  const { dirs, home } = workspaceWithNotes(t);
  const mock = await startMockProvider('anthropic', {
    script: toolScript({
      'read notes': { name: 'Read', input: { file_path: join(dirs.workspace, 'notes.txt') } },
      'make a file': { name: 'Bash', input: { command: 'touch created.txt', description: 'Create a file' } },
    }),
  });
  t.after(() => mock.close());
  const env = { ANTHROPIC_API_KEY: 'sk-ant-standin-0123456789abcdefghij', ANTHROPIC_BASE_URL: mock.baseUrl };
  const headless = (prompt: string) => buildProcessInvocationSpec(request('claude-code', dirs, { interactionMode: 'headless', ioMode: 'pipes', env }), { executable: claude, prompt }).spec;

  const read = await runHeadless(headless('read notes'), baseEnv(home));
  assert.equal(read.code, 0, read.stderr);
  const afterRead = conversationOf(mock.turns().at(-1)!).at(-1)!;
  assert.equal(afterRead.role, 'tool');
  assert.match(afterRead.text, /the secret word is pelican/, 'the file content came back as the tool result');
  assert.match(String(read.events.find((e) => e.type === 'result')?.result), /^tool said: .*pelican/s);

  const bash = await runHeadless(headless('make a file'), baseEnv(home));
  assert.equal(bash.code, 0, bash.stderr);
  const denied = mock.turns().at(-1)!;
  const result = ((denied.body as { messages: { content: unknown }[] }).messages.at(-1)!.content as Record<string, unknown>[]).find((part) => part.type === 'tool_result');
  assert.equal(result?.is_error, true, `the Bash call came back as an error: ${JSON.stringify(result)}`);
  assert.match(String(result?.content), /Permission for this tool use was denied/, 'denied for want of an approver (2.1.330 wording), not failed');
  assert.equal(existsSync(join(dirs.workspace, 'created.txt')), false, 'the command did not run');
});

test('real Codex runs the shell command the mock asks for in its sandbox and returns the output; with CODEX_HOME in the temp folder it cannot (warned)', { skip }, async (t) => {
  const { dirs, home } = workspaceWithNotes(t);
  const mock = await startMockProvider('openai', { script: toolScript({ 'read notes': { name: 'exec_command', input: { cmd: 'cat notes.txt' } } }) });
  t.after(() => mock.close());
  const tempDir = join(dirs.root, 'tmp');
  mkdirSync(tempDir);
  const run = async (env: Record<string, string>) => {
    const { spec, warnings } = buildProcessInvocationSpec(request('codex-cli', dirs, { interactionMode: 'headless', ioMode: 'pipes', env: { OPENAI_API_KEY: 'sk-openai-standin', ...env } }), {
      executable: codex,
      openaiEndpoint: { baseUrl: mock.baseUrl },
      prompt: 'read notes',
    });
    const result = await runHeadless(spec, baseEnv(home));
    assert.equal(result.code, 0, result.stderr);
    const command = result.events.map((e) => e.item as Record<string, unknown> | undefined).find((item) => item?.type === 'command_execution' && item.status !== 'in_progress');
    return { warnings, command, toolResult: conversationOf(mock.turns().at(-1)!).at(-1)! };
  };

  // The harness home is under the test's /tmp folder; a TMPDIR elsewhere is what Codex needs to set up its sandbox.
  const sandboxed = await run({ TMPDIR: tempDir });
  assert.equal(sandboxed.warnings, undefined);
  assert.equal(sandboxed.command?.exit_code, 0, JSON.stringify(sandboxed.command));
  assert.equal(sandboxed.toolResult.role, 'tool');
  assert.match(sandboxed.toolResult.text, /the secret word is pelican/);

  const inTemp = await run({});
  assert.match(inTemp.warnings?.join('\n') ?? '', /CODEX_HOME .* is inside the temp folder/);
  assert.notEqual(inTemp.command?.exit_code, 0);
  assert.match(inTemp.toolResult.text, /codex-linux-sandbox: No such file or directory/, 'what the warning predicts');
});
