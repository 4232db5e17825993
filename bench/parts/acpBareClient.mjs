// The ACP bench's reference: a bare ACP client, the SDK's own client app over the agent's stdio with the SDK's
// newline-delimited JSON stream (nothing of the host: no sandbox, no event log, no RPC, no page), reading the same
// flood agent. Run as its own process (`node acpBareClient.mjs '<json options>'`, one JSON result line on stdout), as
// the host is one, so neither shares an event loop with the bench's DevTools traffic.
//
// It records, per chunk, when the update reached its handler, and the time from sending session/prompt to the first
// chunk: what the product's figures are compared with.
import { spawn } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import { client, ndJsonStream, PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { floodFigures, parseChunkMarker } from './acpFloodMarkers.mjs';

const now = () => performance.timeOrigin + performance.now();

/** Starts `command args` in `cwd`, initializes, opens a session, prompts once; resolves with what it measured. */
export async function runBareClient({ command, args, env, cwd }) {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'inherit'] });
  const received = [];
  let firstAt;
  const app = client({ name: 'acp-bench-bare-client' }).onNotification('session/update', ({ params }) => {
    const at = now();
    const update = params.update;
    if (update.sessionUpdate !== 'agent_message_chunk' || update.content.type !== 'text') return;
    firstAt ??= at;
    const marker = parseChunkMarker(update.content.text);
    if (marker) received.push([marker.seq, marker.at, at]);
  });
  const connection = app.connect(ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout)));
  try {
    const init = await connection.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
    if (init.protocolVersion !== PROTOCOL_VERSION) throw new Error(`the agent speaks ACP ${init.protocolVersion}`);
    const { sessionId } = await connection.agent.request('session/new', { cwd, mcpServers: [] });
    const promptAt = now();
    const { stopReason } = await connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'flood' }] });
    const endAt = now();
    return { stopReason, promptAt, firstAt, endAt, received };
  } finally {
    connection.close();
    child.kill('SIGKILL');
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const options = JSON.parse(process.argv[2]);
  const { received, promptAt, stopReason } = await runBareClient(options);
  if (stopReason !== 'end_turn') throw new Error(`the turn ended ${stopReason}`);
  // The figures, not the arrivals: a pipe takes a few KB at once, and exit() would not wait for the rest.
  process.stdout.write(`${JSON.stringify(floodFigures(received, promptAt, options.chunks))}\n`, () => process.exit(0));
}
