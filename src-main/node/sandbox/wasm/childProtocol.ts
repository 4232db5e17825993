/**
 * What the host and an agent's child process say to each other. Host → child goes over Node's IPC channel (the
 * child reads it only while idle); child → host goes as frames over a separate pipe (fd 4), and a host call's answer
 * comes back on that pipe, where the child waits for it with a blocking read. All child → host traffic shares one
 * pipe, so a guest's log lines, calls and the end of a step arrive in the order they happened.
 */
import { ChildFrameError } from './childFrameError';

export const CALL_CHANNEL_FD = 4;

export type ToChild =
  | { type: 'start'; module: Uint8Array; ctx: string; maxPages: number; memoryImport: { initialPages: number; maximumPages: number } | null }
  | { type: 'invoke'; input: string }
  | { type: 'shutdown' };

// What the child sends is checked by the host against a schema (childFrames.ts); the types come from it. A type-only
// export, so the child's bundle does not take zod along.
export type { FromChild, Step } from './childFrames';

/** One frame: a 4-byte big-endian length, then that many bytes of UTF-8 JSON. */
export function encodeFrame(value: unknown): Buffer {
  return encodeTextFrame(JSON.stringify(value));
}

export function encodeTextFrame(json: string): Buffer {
  const body = Buffer.from(json, 'utf8');
  const frame = Buffer.allocUnsafe(4 + body.length);
  frame.writeUInt32BE(body.length, 0);
  body.copy(frame, 4);
  return frame;
}

/** Frames back out of a byte stream that arrives in arbitrary pieces (joined once per frame, not once per piece). */
export class FrameReader {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(private readonly maxFrameBytes: number) {}

  /** The whole frames completed by `chunk`; throws a ChildFrameError when a frame claims to be larger than allowed. */
  push(chunk: Buffer): string[] {
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    const frames: string[] = [];
    while (this.pendingBytes >= 4) {
      if (this.pending[0].length < 4) this.pending = [Buffer.concat(this.pending)];
      const length = this.pending[0].readUInt32BE(0);
      if (length > this.maxFrameBytes) throw new ChildFrameError(`${length} bytes, over the ${this.maxFrameBytes} allowed`);
      if (this.pendingBytes < 4 + length) break;
      const buffer = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending);
      frames.push(buffer.toString('utf8', 4, 4 + length));
      const rest = buffer.subarray(4 + length);
      this.pending = rest.length > 0 ? [rest] : [];
      this.pendingBytes = rest.length;
    }
    return frames;
  }
}
