/* eslint-disable @typescript-eslint/no-explicit-any -- a scripted stand-in reading loose JSON-RPC */
// The fake ACP agent's 'conversation' scenario (FAKE_ACP_SCENARIO=conversation), a well-behaved agent for the UI's
// end-to-end test: slash commands after session/new; each prompt streams a markdown reply in small chunks after a
// thought; a prompt that says "write" also sends a plan, announces an edit of <cwd>/notes.md with its diff, asks
// permission, writes the file through fs/write_text_file once allowed (the tool call then completes with the diff)
// and completes the plan; a prompt that says "run" asks the client for a terminal running `sh -c 'echo …'` (the
// tool call carries the terminal, so its output shows live on the card) and waits for it to exit; session/load
// replays a history line, as the protocol's replay does.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface FakeAgentIo {
  send(message: unknown): void;
  request(method: string, params: unknown): Promise<{ result?: any; error?: any }>;
  update(sessionId: string, update: unknown): void;
}

export const NOTES_TEXT = '# Notes\n\nwritten by the fake agent\n';

let cwd = process.cwd();
let turns = 0;

const text = (value: string) => ({ type: 'text', text: value });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Streams `reply` in chunks of a few characters, as a model's tokens come. */
async function stream(io: FakeAgentIo, sessionId: string, reply: string): Promise<void> {
  for (let i = 0; i < reply.length; i += 6) {
    io.update(sessionId, { sessionUpdate: 'agent_message_chunk', content: text(reply.slice(i, i + 6)) });
    await pause(2);
  }
}

async function writeNotes(io: FakeAgentIo, sessionId: string): Promise<string> {
  const path = join(cwd, 'notes.md');
  const oldText = existsSync(path) ? readFileSync(path, 'utf8') : null;
  const toolCallId = `write-${turns}`;
  const diff = { type: 'diff', path, oldText, newText: NOTES_TEXT };
  const plan = (first: string, second: string) => ({
    sessionUpdate: 'plan',
    entries: [
      { content: 'Write notes.md', status: first, priority: 'high' },
      { content: 'Report back', status: second, priority: 'medium' },
    ],
  });
  io.update(sessionId, plan('in_progress', 'pending'));
  io.update(sessionId, { sessionUpdate: 'tool_call', toolCallId, title: 'Write notes.md', kind: 'edit', status: 'pending', locations: [{ path }], content: [diff] });
  const answer = await io.request('session/request_permission', {
    sessionId,
    toolCall: { toolCallId, title: 'Write notes.md', kind: 'edit', locations: [{ path }], content: [diff] },
    options: [
      { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
      { optionId: 'once', name: 'Allow', kind: 'allow_once' },
      { optionId: 'no', name: 'Reject', kind: 'reject_once' },
    ],
  });
  const outcome = answer.result?.outcome;
  if (outcome?.outcome === 'cancelled') return 'cancelled';
  if (outcome?.outcome !== 'selected' || outcome.optionId === 'no') {
    io.update(sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'failed' });
    await stream(io, sessionId, 'Not written: the permission was refused.');
    return 'end_turn';
  }
  io.update(sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'in_progress' });
  const written = await io.request('fs/write_text_file', { sessionId, path, content: NOTES_TEXT });
  io.update(sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: written.error ? 'failed' : 'completed', content: [diff] });
  io.update(sessionId, plan('completed', 'completed'));
  await stream(io, sessionId, written.error ? `Writing failed: ${written.error.message}` : '\n\nDone: `notes.md` is written.');
  return 'end_turn';
}

export const BUILD_OUTPUT = 'build: 3 files compiled';

async function runBuild(io: FakeAgentIo, sessionId: string): Promise<string> {
  const toolCallId = `run-${turns}`;
  io.update(sessionId, { sessionUpdate: 'tool_call', toolCallId, title: 'Run the build', kind: 'execute', status: 'pending' });
  // A pause before the output: the card shows the command's screen while it runs, not only once it has ended.
  const created = await io.request('terminal/create', { sessionId, command: 'sh', args: ['-c', `sleep 0.5; echo '${BUILD_OUTPUT}'`], outputByteLimit: 10_000 });
  if (created.error) {
    io.update(sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'failed' });
    await stream(io, sessionId, `Not run: ${created.error.message}`);
    return 'end_turn';
  }
  const terminalId = created.result.terminalId as string;
  io.update(sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'in_progress', content: [{ type: 'terminal', terminalId }] });
  const exit = await io.request('terminal/wait_for_exit', { sessionId, terminalId });
  await io.request('terminal/release', { sessionId, terminalId });
  io.update(sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: exit.result?.exitCode === 0 ? 'completed' : 'failed' });
  await stream(io, sessionId, `\n\nThe build exited with ${exit.result?.exitCode}.`);
  return 'end_turn';
}

/** Handles what the scenario scripts (session/new, session/load, session/prompt); false leaves the method to the fake's common answers. */
export async function conversationScenario(io: FakeAgentIo, id: number, method: string, params: any): Promise<boolean> {
  if (method === 'session/new' || method === 'session/load') {
    const sessionId = method === 'session/load' ? params.sessionId : 'fake-conversation-1';
    if (typeof params.cwd === 'string') cwd = params.cwd;
    if (method === 'session/load') io.update(sessionId, { sessionUpdate: 'agent_message_chunk', content: text('(history replayed by session/load)') });
    io.send({ id, result: { sessionId, modes: { currentModeId: 'default', availableModes: [{ id: 'default', name: 'Default' }, { id: 'plan', name: 'Plan' }] } } });
    // After the answer: the session exists for the client only once session/new has answered.
    setTimeout(() => io.update(sessionId, { sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'review', description: 'Review the changes', input: { hint: 'what to review' } }] }), 20);
    return true;
  }
  if (method !== 'session/prompt') return false;
  turns++;
  const sessionId = params.sessionId as string;
  const said = (params.prompt as any[]).map((block) => (block?.type === 'text' ? block.text : '')).join('');
  io.update(sessionId, { sessionUpdate: 'agent_thought_chunk', content: text(`The user wants: ${said}`) });
  await stream(io, sessionId, `## Turn ${turns}\n\nYou said: **${said}**.\n\n- first point\n- second point\n`);
  const stopReason = /write/i.test(said) ? await writeNotes(io, sessionId) : /run/i.test(said) ? await runBuild(io, sessionId) : 'end_turn';
  io.update(sessionId, { sessionUpdate: 'usage_update', used: 1200 * turns, size: 200_000, cost: { amount: 0.0125 * turns, currency: 'USD' } });
  io.send({ id, result: { stopReason } });
  return true;
}
