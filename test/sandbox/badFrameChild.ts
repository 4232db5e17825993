// A stand-in for the agent's child process (childEntry.ts) that speaks the protocol until told to break it: the
// `start` message's ctx.config.frames (at start) and ctx.config.invokeFrames (at invoke) are written to the host as
// they are, each as one frame's text (bad JSON, a wrong shape), and ctx.config.oversized sends a frame header larger
// than the host accepts. Without them it behaves: a step ends with `done`, and `invoke` logs "fine" first.
import { writeSync } from 'node:fs';
import { CALL_CHANNEL_FD, encodeFrame, encodeTextFrame, type ToChild } from '../../src-main/node/sandbox/wasm/childProtocol';

const write = (bytes: Buffer) => writeSync(CALL_CHANNEL_FD, bytes);
let invokeFrames: string[] | undefined;

process.on('message', (message: ToChild) => {
  if (message.type === 'start') {
    const config = (JSON.parse(message.ctx) as { config: { frames?: string[]; invokeFrames?: string[]; oversized?: boolean } }).config;
    invokeFrames = config.invokeFrames;
    if (config.oversized) {
      const header = Buffer.alloc(4);
      header.writeUInt32BE(0x7fffffff, 0);
      write(header);
    }
    for (const text of config.frames ?? []) write(encodeTextFrame(text));
    if (!config.frames && !config.oversized) write(encodeFrame({ type: 'done', step: 'start' }));
  } else if (message.type === 'invoke' && invokeFrames) {
    for (const text of invokeFrames) write(encodeTextFrame(text));
  } else if (message.type === 'invoke') {
    write(encodeFrame({ type: 'log', stream: 'stdout', text: 'fine' }));
    write(encodeFrame({ type: 'done', step: 'invoke' }));
  } else {
    write(encodeFrame({ type: 'done', step: 'shutdown' }));
    process.exit(0);
  }
});
process.on('disconnect', () => process.exit(0));
write(encodeFrame({ type: 'ready' }));
