import type { Readable, Writable } from 'node:stream';
import type { Stream } from '@agentclientprotocol/sdk';
import { AcpError } from './acpError';

/** One JSON-RPC message as the SDK's streams carry it. */
type AnyMessage = Stream['readable'] extends ReadableStream<infer M> ? M : never;

/** The name session/update notifications reach the client app under (see the note where they are renamed). */
export const SESSION_UPDATE_METHOD = '_omni/session_update';

export interface AcpLineChannelOptions {
  /** A line longer than this ends the connection (ACP_MESSAGE_TOO_LARGE); memory stays bounded by it. */
  maxLineBytes: number;
  /** This many non-JSON lines in a row end the connection (ACP_BAD_MESSAGE): the agent is not speaking ACP. */
  maxGarbageRun: number;
  /** A line that is not a JSON-RPC message (shown as a notice, never fatal on its own). */
  onGarbage(line: string): void;
  /** The channel can no longer be used: too large, too much garbage. */
  onFatal(error: AcpError): void;
}

/**
 * ACP's framing (one JSON-RPC message per line) over the agent's stdio, done here rather than in the SDK so the host
 * decides what a bad line costs: a line that is not JSON is reported and skipped, an oversized one ends the
 * connection before it is buffered whole, and a stream of garbage ends it too. Hands the SDK the web streams of
 * parsed messages it connects over.
 */
export function acpLineChannel(stdin: Writable, stdout: Readable, options: AcpLineChannelOptions): { readable: ReadableStream<AnyMessage>; writable: WritableStream<AnyMessage> } {
  let failed = false;
  const readable = new ReadableStream<AnyMessage>({
    start(controller) {
      let parts: Buffer[] = [];
      let length = 0;
      let garbageRun = 0;
      const fail = (error: AcpError) => {
        if (failed) return;
        failed = true;
        parts = [];
        stdout.destroy();
        options.onFatal(error);
        try {
          controller.close();
        } catch {
          // already closed
        }
      };
      const line = (bytes: Buffer) => {
        const text = bytes.toString('utf8').trim();
        if (text === '') return;
        let message: unknown;
        try {
          message = JSON.parse(text);
        } catch {
          message = undefined;
        }
        if (message === null || typeof message !== 'object' || Array.isArray(message) || (message as { jsonrpc?: unknown }).jsonrpc !== '2.0') {
          garbageRun += 1;
          options.onGarbage(text.length > 500 ? `${text.slice(0, 500)}…` : text);
          if (garbageRun >= options.maxGarbageRun) {
            fail(new AcpError('ACP_BAD_MESSAGE', `the agent wrote ${garbageRun} lines in a row that are not ACP messages (JSON-RPC 2.0, one per line); it may be printing logs on stdout. Check the agent's command and arguments`));
          }
          return;
        }
        garbageRun = 0;
        // The SDK validates every session/update strictly before any handler sees it and drops one of a kind it does
        // not know (a newer agent's); under its own name the host's lenient handler gets them all.
        if ((message as { method?: unknown }).method === 'session/update' && !('id' in message)) (message as { method: string }).method = SESSION_UPDATE_METHOD;
        controller.enqueue(message as AnyMessage);
      };
      stdout.on('data', (chunk: Buffer) => {
        if (failed) return;
        let start = 0;
        for (;;) {
          const newline = chunk.indexOf(10, start);
          if (newline === -1) break;
          const piece = chunk.subarray(start, newline);
          if (length + piece.length > options.maxLineBytes) return fail(tooLarge(options.maxLineBytes));
          line(parts.length === 0 ? piece : Buffer.concat([...parts, piece]));
          if (failed) return;
          parts = [];
          length = 0;
          start = newline + 1;
        }
        const rest = chunk.subarray(start);
        if (rest.length === 0) return;
        if (length + rest.length > options.maxLineBytes) return fail(tooLarge(options.maxLineBytes));
        // Copied: the stream may reuse its buffer.
        parts.push(Buffer.from(rest));
        length += rest.length;
      });
      stdout.on('end', () => {
        if (failed) return;
        if (length > 0) line(Buffer.concat(parts));
        failed = true;
        try {
          controller.close();
        } catch {
          // already closed
        }
      });
      stdout.on('error', () => {
        if (failed) return;
        failed = true;
        try {
          controller.close();
        } catch {
          // already closed
        }
      });
    },
  });
  const writable = new WritableStream<AnyMessage>({
    write(message) {
      return new Promise<void>((resolve) => {
        if (stdin.destroyed || stdin.writableEnded) return resolve();
        // A gone agent (EPIPE) is noticed through its exit, not here.
        stdin.write(`${JSON.stringify(message)}\n`, () => resolve());
      });
    },
  });
  return { readable, writable };
}

function tooLarge(max: number): AcpError {
  return new AcpError('ACP_MESSAGE_TOO_LARGE', `the agent sent a message larger than ${Math.round(max / (1024 * 1024))} MiB, which the host does not accept; the conversation was stopped`);
}
