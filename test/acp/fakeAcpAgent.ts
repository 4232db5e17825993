/* eslint-disable @typescript-eslint/no-explicit-any -- a scripted stand-in reading loose JSON-RPC */
// A scripted ACP agent for the client's failure paths (a real adapter cannot be made to misbehave on cue).
// Speaks newline-delimited JSON-RPC on stdio; FAKE_ACP_SCENARIO picks the behaviour:
//   normal          answers everything; a prompt streams chunks, an unknown update kind, an unknown notification and
//                   calls an unknown method, then ends the turn
//   garbage         writes non-JSON lines before and between its answers
//   huge-line       a prompt is answered by a 100 MB line
//   hang-init       never answers initialize
//   exit-mid-turn   a prompt streams one chunk, then the process exits (code 3)
//   permission      a prompt asks permission to edit FAKE_ACP_PATH, then (if allowed) writes it through fs/write_text_file
//   old-version     answers initialize with protocolVersion 0
//   terminal        a prompt runs `echo hi` through terminal/create + wait_for_exit + output + release
//   ignore-cancel   a prompt never ends, session/cancel is ignored (a hung turn); it starts a grandchild (`sleep`)
//   conversation    a well-behaved agent for the UI: markdown replies, a plan, a permitted write (fakeAcpConversation.ts)
//   long-reply      a prompt streams LONG_REPLY_PARAGRAPHS paragraphs («n» at the start of each) at once, then a few
//                   words every 100 ms until session/cancel: a reply still streaming, far longer than the view
//   read-log        a prompt is answered by what the host's database (FAKE_ACP_DB, opened read-only) holds at that
//                   moment: the newest prompt's text and the newest status, as JSON in one chunk
//   steady-stream   a prompt streams a short chunk («n») every 4 ms for STEADY_STREAM_CHUNKS chunks, a paragraph every
//                   50, then «end» and the turn ends: faster than anyone reads, slow enough for any page to draw
import { createInterface } from 'node:readline';
import { conversationScenario } from './fakeAcpConversation';

const scenario = process.env.FAKE_ACP_SCENARIO ?? 'normal';
let nextId = 1000;
const waiting = new Map<number, (message: { result?: unknown; error?: unknown }) => void>();

function send(message: unknown): void {
  process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...(message as object) })}\n`);
}
function request(method: string, params: unknown): Promise<{ result?: any; error?: any }> {
  const id = nextId++;
  send({ id, method, params });
  return new Promise((resolve) => waiting.set(id, resolve));
}
function update(sessionId: string, u: unknown): void {
  send({ method: 'session/update', params: { sessionId, update: u } });
}
const chunk = (text: string) => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
/** What session/cancel stops (the long-reply scenario's turn). */
let onCancel: (() => void) | null = null;
const LONG_REPLY_PARAGRAPHS = 60;
const STEADY_STREAM_CHUNKS = 750;

async function onRequest(id: number, method: string, params: any): Promise<void> {
  if (scenario === 'conversation' && (await conversationScenario({ send, request, update }, id, method, params))) return;
  if (method === 'initialize') {
    if (scenario === 'hang-init') return;
    if (scenario === 'garbage') process.stdout.write('this is not json\n{"half": \n[1,2,3]\n');
    send({ id, result: { protocolVersion: scenario === 'old-version' ? 0 : 1, agentCapabilities: { loadSession: true }, agentInfo: { name: 'fake', version: '1' } } });
    return;
  }
  if (method === 'session/new' || method === 'session/load') {
    const sessionId = method === 'session/load' ? params.sessionId : 'fake-session-1';
    if (method === 'session/load') update(sessionId, { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'replayed' } });
    const configOptions = [{ id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: 'small', options: [{ value: 'small', name: 'Small' }, { value: 'large', name: 'Large' }] }];
    send({ id, result: { sessionId, modes: { currentModeId: 'default', availableModes: [{ id: 'default', name: 'Default' }, { id: 'plan', name: 'Plan' }] }, configOptions } });
    return;
  }
  if (method === 'session/set_config_option') {
    send({ id, result: { configOptions: [] } });
    return;
  }
  if (method === 'session/set_mode') {
    update(params.sessionId, { sessionUpdate: 'current_mode_update', currentModeId: params.modeId });
    send({ id, result: {} });
    return;
  }
  if (method === 'session/prompt') {
    const sessionId = params.sessionId as string;
    const text = params.prompt?.[0]?.text ?? '';
    if (scenario === 'long-reply') {
      const words = 'a long answer streams in word by word while the user reads it ';
      for (let n = 0; n < LONG_REPLY_PARAGRAPHS; n++) {
        for (let piece = 0; piece < 30; piece++) update(sessionId, chunk(`${piece === 0 ? `«${n}» ` : ''}${words.repeat(2)}`));
        update(sessionId, chunk('\n\n'));
      }
      const more = setInterval(() => update(sessionId, chunk('and more ')), 100);
      onCancel = () => {
        clearInterval(more);
        send({ id, result: { stopReason: 'cancelled' } });
      };
      return;
    }
    if (scenario === 'steady-stream') {
      let n = 0;
      const timer = setInterval(() => {
        update(sessionId, chunk(`«${n}» streaming steadily ${(n + 1) % 50 === 0 ? '\n\n' : ''}`));
        if (++n < STEADY_STREAM_CHUNKS) return;
        clearInterval(timer);
        update(sessionId, chunk('«end»'));
        send({ id, result: { stopReason: 'end_turn' } });
      }, 4);
      return;
    }
    if (scenario === 'huge-line') {
      const piece = 'x'.repeat(1024 * 1024);
      process.stdout.write('{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"');
      for (let i = 0; i < 100; i++) {
        if (!process.stdout.write(piece)) await new Promise((resolve) => process.stdout.once('drain', resolve));
      }
      process.stdout.write('"}}}}\n');
      return;
    }
    if (scenario === 'read-log') {
      const { default: Sqlite } = await import('better-sqlite3');
      const db = new Sqlite(process.env.FAKE_ACP_DB!, { readonly: true });
      const newest = (type: string) => {
        const row = db.prepare("SELECT payload FROM event_log WHERE kind = 'acp.event' AND json_extract(payload, '$.type') = ? ORDER BY seq DESC LIMIT 1").get(type) as { payload: string } | undefined;
        return row ? JSON.parse(row.payload).data : null;
      };
      const seen = { prompt: newest('prompt')?.text ?? null, status: newest('status')?.status ?? null };
      db.close();
      update(sessionId, chunk(JSON.stringify(seen)));
      send({ id, result: { stopReason: 'end_turn' } });
      return;
    }
    if (scenario === 'ignore-cancel') {
      const { spawn } = await import('node:child_process');
      const child = spawn('sleep', ['300'], { stdio: 'ignore' });
      update(sessionId, chunk(`grandchild ${child.pid}`));
      return;
    }
    if (scenario === 'exit-mid-turn') {
      update(sessionId, chunk('about to'));
      setTimeout(() => process.exit(3), 50);
      return;
    }
    if (scenario === 'permission') {
      const path = process.env.FAKE_ACP_PATH!;
      update(sessionId, { sessionUpdate: 'tool_call', toolCallId: 't1', title: `Write ${path}`, kind: 'edit', status: 'pending', locations: [{ path }], rawInput: { file_path: path, content: 'hello' } });
      const answer = await request('session/request_permission', {
        sessionId,
        toolCall: { toolCallId: 't1', title: `Write ${path}`, kind: 'edit', locations: [{ path }], rawInput: { file_path: path, content: 'hello' }, content: [{ type: 'diff', path, oldText: null, newText: 'hello' }] },
        options: [
          { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
          { optionId: 'once', name: 'Allow', kind: 'allow_once' },
          { optionId: 'no', name: 'Reject', kind: 'reject_once' },
        ],
      });
      const outcome = answer.result?.outcome;
      update(sessionId, chunk(`permission: ${outcome?.outcome === 'selected' ? outcome.optionId : outcome?.outcome}`));
      if (outcome?.outcome === 'selected' && outcome.optionId !== 'no') {
        const written = await request('fs/write_text_file', { sessionId, path, content: 'hello' });
        update(sessionId, chunk(written.error ? `write failed: ${written.error.message}` : 'written'));
        update(sessionId, { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: written.error ? 'failed' : 'completed', content: [{ type: 'diff', path, oldText: null, newText: 'hello' }] });
      }
      send({ id, result: { stopReason: outcome?.outcome === 'cancelled' ? 'cancelled' : 'end_turn' } });
      return;
    }
    if (scenario === 'terminal') {
      const created = await request('terminal/create', { sessionId, command: 'echo', args: ['hi'], outputByteLimit: 1000 });
      if (created.error) {
        update(sessionId, chunk(`terminal failed: ${created.error.message}`));
        send({ id, result: { stopReason: 'end_turn' } });
        return;
      }
      const terminalId = created.result.terminalId;
      const exit = await request('terminal/wait_for_exit', { sessionId, terminalId });
      const output = await request('terminal/output', { sessionId, terminalId });
      await request('terminal/release', { sessionId, terminalId });
      update(sessionId, chunk(`exit ${exit.result?.exitCode} output ${JSON.stringify(output.result?.output)}`));
      send({ id, result: { stopReason: 'end_turn' } });
      return;
    }
    if (scenario === 'garbage') process.stdout.write('garbage in the middle\n');
    update(sessionId, { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'thinking' } });
    update(sessionId, chunk(`you said: ${text}`));
    update(sessionId, { sessionUpdate: 'mystery_update', anything: 1 });
    update(sessionId, { sessionUpdate: 'plan', entries: [{ content: 'step', priority: 'high', status: 'pending' }] });
    update(sessionId, { sessionUpdate: 'usage_update', used: 10, size: 1000, cost: { amount: 0.01, currency: 'USD' } });
    send({ method: 'fake/unknown_notification', params: {} });
    const unknown = await request('fake/unknown_method', {});
    update(sessionId, chunk(`unknown method answered ${unknown.error?.code}`));
    send({ id, result: { stopReason: 'end_turn' } });
    return;
  }
  send({ id, error: { code: -32601, message: `method not found: ${method}` } });
}

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  if (line.trim() === '') return;
  const message = JSON.parse(line);
  if (message.method && message.id !== undefined) void onRequest(message.id, message.method, message.params);
  else if (message.method === 'session/cancel') {
    // Pending permission answers come back as `cancelled`; a streaming turn stops.
    onCancel?.();
    onCancel = null;
  } else if (message.id !== undefined) {
    waiting.get(message.id)?.(message);
    waiting.delete(message.id);
  }
});
lines.on('close', () => process.exit(0));
