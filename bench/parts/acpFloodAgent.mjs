#!/usr/bin/env node
// The ACP bench's scripted agent: plain Node with no imports beyond node:, so it runs wherever the host starts it
// (in the native sandbox it sees only its own folder and node). Newline-delimited JSON-RPC on stdio, protocol
// version 1: initialize, session/new, and session/prompt, which floods ACP_FLOOD_CHUNKS `agent_message_chunk`
// updates at ACP_FLOOD_RATE a second and then ends the turn.
//
// Every chunk's text carries a marker «seq:ms» (its number, and the epoch ms it was written, to 0.1 ms: timeOrigin +
// now, the clock a page's performance.timeOrigin + performance.now() shares), so a reader can tell when each single
// chunk reached it. Guillemets, digits, ':' and '.' mean nothing to markdown, so a rendered message keeps the markers
// as written. Every PARAGRAPH chunks a chunk ends its paragraph, as an answer's text does.
//
// Chunk i is due at start + i / rate. The agent keeps to that schedule on timers without spinning (a spinning agent
// would take a core from the host and the browser on a small machine); when a timer fires late it writes every
// overdue chunk at once, in one write, so the average rate holds. It does not wait for the pipe to drain: an agent
// streaming tokens does not either, and what the reader cannot take yet then waits in this process, where the
// stamps count it.
import { createInterface } from 'node:readline';

const RATE = Number(process.env.ACP_FLOOD_RATE ?? 10_000);
const CHUNKS = Number(process.env.ACP_FLOOD_CHUNKS ?? 30_000);
const PARAGRAPH = 100;
const WORDS = ' the agent streams its answer token by token';

const now = () => performance.timeOrigin + performance.now();
const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);

/** The JSON line of chunk `seq` written at `at`: built by hand, the flood's hot path. */
function chunkLine(sessionId, seq, at) {
  const text = `«${seq}:${at.toFixed(1)}»${WORDS}${(seq + 1) % PARAGRAPH === 0 ? '.\\n\\n' : ''}`;
  return `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":${JSON.stringify(sessionId)},"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"${text}"}}}}\n`;
}

function flood(id, sessionId) {
  const started = performance.now();
  let sent = 0;
  const tick = () => {
    const due = Math.min(CHUNKS, Math.floor(((performance.now() - started) / 1000) * RATE) + 1);
    if (due > sent) {
      const at = now();
      let batch = '';
      for (; sent < due; sent++) batch += chunkLine(sessionId, sent, at);
      process.stdout.write(batch);
    }
    if (sent < CHUNKS) {
      // The next chunk's due time; a timer never fires early, at worst a little late.
      const wait = started + (sent * 1000) / RATE - performance.now();
      setTimeout(tick, Math.max(0, wait));
      return;
    }
    send({ id, result: { stopReason: 'end_turn' } });
  };
  tick();
}

let sessions = 0;
const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  if (line.trim() === '') return;
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    return;
  }
  const { id, method, params } = message;
  if (method === undefined || id === undefined) return;
  if (method === 'initialize') send({ id, result: { protocolVersion: 1, agentCapabilities: { loadSession: false }, agentInfo: { name: 'acp-bench-flood', version: '1' } } });
  else if (method === 'session/new') send({ id, result: { sessionId: `flood-${++sessions}` } });
  else if (method === 'session/prompt') flood(id, params.sessionId);
  else send({ id, error: { code: -32601, message: `method not found: ${method}` } });
});
lines.on('close', () => process.exit(0));
