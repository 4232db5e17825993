#!/usr/bin/env node
// The review bench's scripted ACP agent: plain Node with no imports beyond node:, newline-delimited JSON-RPC on
// stdio (initialize, session/new, session/prompt). Each prompt writes one TypeScript file of REVIEW_BENCH_LINES
// lines straight into the session's folder (not through the client's fs/write_text_file, so no consent card
// stands between the bench and its turn), says so, and ends the turn. The host's snapshots see the write like any
// other change, so the turn's review holds a diff of that many added lines.
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { join } from 'node:path';

const LINES = Number(process.env.REVIEW_BENCH_LINES ?? 5_000);
const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
const cwds = new Map();
let prompts = 0;

/** Lines a highlighter has work on: keywords, strings, numbers, comments, one in a while a block comment. */
function source() {
  const lines = [];
  for (let i = 0; i < LINES; i++) {
    if (i % 50 === 0) lines.push(`/* section ${i / 50}: values computed at start-up */`);
    else lines.push(`export const value${i} = compute(${i}, 'line ${i}', { weight: ${(i % 7) / 10} }); // note ${i}`);
  }
  return `${lines.join('\n')}\n`;
}

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
  if (method === 'initialize') send({ id, result: { protocolVersion: 1, agentCapabilities: { loadSession: false }, agentInfo: { name: 'acp-review-bench', version: '1' } } });
  else if (method === 'session/new') {
    const sessionId = `review-${cwds.size + 1}`;
    cwds.set(sessionId, params.cwd);
    send({ id, result: { sessionId } });
  } else if (method === 'session/prompt') {
    const file = `generated-${++prompts}.ts`;
    try {
      writeFileSync(join(cwds.get(params.sessionId) ?? process.cwd(), file), source());
      send({ method: 'session/update', params: { sessionId: params.sessionId, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `Wrote ${file} (${LINES} lines).` } } } });
      send({ id, result: { stopReason: 'end_turn' } });
    } catch (error) {
      send({ id, error: { code: -32603, message: `could not write ${file}: ${error.message}` } });
    }
  } else send({ id, error: { code: -32601, message: `method not found: ${method}` } });
});
lines.on('close', () => process.exit(0));
