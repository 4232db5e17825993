/* eslint-disable @typescript-eslint/no-explicit-any -- a scripted stand-in reading loose JSON-RPC */
// A scripted ACP agent whose one kind of turn changes the workspace three ways, as the proof of issue 22 asks: it
// writes notes.md through fs/write_text_file, then asks for a terminal (an agent-requested shell run) that edits
// two distant lines of b.txt with `sed -i` and deletes c.txt with `rm`, waits for it to exit, and ends the turn.
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { NOTES, SHELL_COMMAND } from './fakeChangesTurn';


let nextId = 1000;
let cwd = process.cwd();
const waiting = new Map<number, (message: { result?: any; error?: any }) => void>();
const send = (message: unknown): void => void process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...(message as object) })}\n`);
function request(method: string, params: unknown): Promise<{ result?: any; error?: any }> {
  const id = nextId++;
  send({ id, method, params });
  return new Promise((resolve) => waiting.set(id, resolve));
}

async function onRequest(id: number, method: string, params: any): Promise<void> {
  if (method === 'initialize') return send({ id, result: { protocolVersion: 1, agentCapabilities: { loadSession: false }, agentInfo: { name: 'fake-changes', version: '1' } } });
  if (method === 'session/new') {
    cwd = params.cwd;
    return send({ id, result: { sessionId: 'fake-changes-1' } });
  }
  if (method === 'session/prompt') {
    const sessionId = params.sessionId as string;
    const written = await request('fs/write_text_file', { sessionId, path: join(cwd, 'notes.md'), content: NOTES });
    if (written.error) return send({ id, error: { code: -32000, message: `write failed: ${written.error.message}` } });
    const created = await request('terminal/create', { sessionId, command: 'sh', args: ['-c', SHELL_COMMAND], outputByteLimit: 10_000 });
    if (created.error) return send({ id, error: { code: -32000, message: `terminal failed: ${created.error.message}` } });
    const terminalId = created.result.terminalId as string;
    await request('terminal/wait_for_exit', { sessionId, terminalId });
    await request('terminal/release', { sessionId, terminalId });
    return send({ id, result: { stopReason: 'end_turn' } });
  }
  send({ id, result: {} });
}

createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.method && message.id !== undefined) void onRequest(message.id, message.method, message.params);
  else if (message.id !== undefined) {
    waiting.get(message.id)?.(message);
    waiting.delete(message.id);
  }
});
