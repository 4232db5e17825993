import { z } from 'zod';
import { call, liveList, stream } from './define';
import { SessionId } from './sessions';

export const TerminalId = z.string().regex(/^term_[A-Za-z0-9_-]{8,64}$/, 'expected a terminal id like "term_…"');

const Cols = z.number().int().min(2).max(1000);
const Rows = z.number().int().min(1).max(500);

export const Terminal = z.object({
  id: TerminalId,
  sessionId: SessionId,
  title: z.string(),
  cwd: z.string(),
  pid: z.number().int(),
  cols: Cols,
  rows: Rows,
  status: z.enum(['running', 'exited']),
  exitCode: z.number().int().nullable(),
  createdAt: z.number().int(),
});
export type Terminal = z.infer<typeof Terminal>;

/** One piece of terminal output, or the final notice that the shell exited. */
export const TerminalEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('data'), data: z.string() }),
  z.object({ type: z.literal('exit'), exitCode: z.number().int().nullable(), signal: z.number().int().nullable() }),
]);
export type TerminalEvent = z.infer<typeof TerminalEvent>;

export const terminalContract = {
  'terminal.open': call(z.object({ sessionId: SessionId, cols: Cols, rows: Rows }), Terminal),
  'terminal.list': call(z.object({ sessionId: SessionId }), z.array(Terminal)),
  /** The same list, live: opened, resized and exited terminals as they are now, closed ones removed. */
  'terminal.watch': liveList(z.object({ sessionId: SessionId }), Terminal, (terminal) => terminal.id),
  'terminal.input': call(z.object({ id: TerminalId, data: z.string().max(1_000_000) }), z.object({})),
  'terminal.resize': call(z.object({ id: TerminalId, cols: Cols, rows: Rows }), z.object({})),
  /** Kills the whole process group and forgets the terminal. */
  'terminal.close': call(z.object({ id: TerminalId }), z.object({})),
  /**
   * Replays the scrollback kept by the host, then live output; credit is counted in characters. Output travels
   * as raw UTF-8 frames, the exit notice as JSON.
   */
  'terminal.output': stream(
    z.object({ id: TerminalId }),
    TerminalEvent,
    (event) => (event.type === 'data' ? event.data.length : 1),
    {
      toText: (event) => (event.type === 'data' ? event.data : undefined),
      fromText: (data): TerminalEvent => ({ type: 'data', data }),
    },
  ),
};
