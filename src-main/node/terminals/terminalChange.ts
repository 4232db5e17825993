import type { Terminal } from '../../../src-preload/contract';
import type { Utf8Text } from '../../../src-preload/rpc';

/** Why a terminal went away: the user (or its session) closed it, or the host shut down and took it along. */
export type TerminalCloseReason = 'closed' | 'host-stop';

/**
 * Everything that changes what a terminal looks like, in the order it happened: what the event log records and
 * replays. `output` fires with exactly the text the scrollback receives, in the same order, still as the UTF-8 the
 * pty gave (`data.text` decodes it).
 */
export type TerminalChange =
  | { kind: 'opened'; terminal: Terminal }
  | { kind: 'output'; sessionId: string; terminalId: string; data: Utf8Text }
  | { kind: 'resized'; sessionId: string; terminalId: string; cols: number; rows: number }
  | { kind: 'exited'; sessionId: string; terminalId: string; exitCode: number | null; signal: number | null }
  | { kind: 'closed'; sessionId: string; terminalId: string; reason: TerminalCloseReason };

/** A change of the terminal list: every change but output. */
export type TerminalListChange = Exclude<TerminalChange, { kind: 'output' }>;
