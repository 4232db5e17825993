import { z } from 'zod';
import { Session, Terminal } from '../../../src-preload/contract';
import { SCROLLBACK_CHARS, Scrollback } from '../terminals/scrollback';
import { EventKind } from './eventKinds';
import type { LoggedEvent } from './loggedEvent';
import { ReplayError } from './replayError';
import type { SessionState } from './sessionState';

const Resized = z.object({ cols: z.number().int(), rows: z.number().int() });
const Exited = z.object({ exitCode: z.number().int().nullable(), signal: z.number().int().nullable() });
const Dropped = z.object({ through: z.number().int() });

export interface ReplayOptions {
  /** Characters of scrollback per terminal: the live terminal service's limit unless a test says otherwise. */
  scrollbackChars?: number;
}

interface ReplayedTerminal {
  terminal: Terminal;
  signal: number | null;
  scrollback: Scrollback;
}

/**
 * Folds a session's events, in seq order, into the state it describes. Pure: the same events always give the same
 * state. It checks as it goes that the events are the session's own and gapless (a retention marker accounts for
 * the seqs it replaced), and refuses anything it does not understand with a ReplayError naming the event.
 */
export function replaySession(sessionId: string, events: Iterable<LoggedEvent>, options: ReplayOptions = {}): SessionState {
  const scrollbackChars = options.scrollbackChars ?? SCROLLBACK_CHARS;
  let session: Session | undefined;
  const terminals = new Map<string, ReplayedTerminal>();
  let expected = 1;

  for (const event of events) {
    const fail = (problem: string) => new ReplayError(sessionId, event.seq, problem);
    const parse = <T>(schema: z.ZodType<T>, value: unknown): T => {
      const parsed = schema.safeParse(value);
      if (!parsed.success) throw fail(`its ${event.kind} payload is malformed: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
      return parsed.data;
    };
    const terminal = (): ReplayedTerminal => {
      const found = event.subject === null ? undefined : terminals.get(event.subject);
      if (!found) throw fail(`${event.kind} names terminal ${event.subject ?? '(none)'}, which is not open at that point`);
      return found;
    };

    if (event.sessionId !== sessionId) throw fail(`it belongs to session ${event.sessionId}`);
    if (event.seq !== expected) {
      throw fail(event.seq < expected ? `it comes out of order (expected event ${expected})` : `events ${expected}..${event.seq - 1} are missing`);
    }
    expected = event.seq + 1;

    switch (event.kind) {
      case EventKind.sessionCreated:
      case EventKind.sessionUpdated: {
        const record = parse(Session, event.payload);
        if (record.id !== sessionId) throw fail(`it records session ${record.id}`);
        session = record;
        break;
      }
      case EventKind.terminalOpened: {
        const opened = parse(Terminal, event.payload);
        if (opened.id !== event.subject) throw fail(`it opens terminal ${opened.id} under subject ${event.subject ?? '(none)'}`);
        if (terminals.has(opened.id)) throw fail(`terminal ${opened.id} is opened twice`);
        terminals.set(opened.id, { terminal: opened, signal: null, scrollback: new Scrollback(scrollbackChars) });
        break;
      }
      case EventKind.terminalOutput:
        if (event.data === null) throw fail('an output event has no data');
        terminal().scrollback.append(event.data);
        break;
      case EventKind.terminalResized: {
        const { cols, rows } = parse(Resized, event.payload);
        const t = terminal();
        t.terminal.cols = cols;
        t.terminal.rows = rows;
        break;
      }
      case EventKind.terminalExited: {
        const { exitCode, signal } = parse(Exited, event.payload);
        const t = terminal();
        t.terminal.status = 'exited';
        t.terminal.exitCode = exitCode;
        t.signal = signal;
        break;
      }
      case EventKind.terminalClosed:
        terminal();
        terminals.delete(event.subject!);
        break;
      case EventKind.hostProgress:
      case EventKind.acpEvent:
      case EventKind.agentRun:
      case EventKind.agentEvent:
      case EventKind.agentOutput:
        // Progress messages are shown in the progress log, ACP conversations by acp.updates, agent runs by
        // agent.events; they change nothing a replay rebuilds.
        break;
      case EventKind.dropped: {
        const { through } = parse(Dropped, event.payload);
        if (through < event.seq) throw fail(`a retention marker ends (${through}) before it starts`);
        expected = through + 1;
        break;
      }
      default:
        throw fail(`unknown event kind "${event.kind}"; this version replays ${Object.values(EventKind).join(', ')}`);
    }
  }

  if (!session) {
    throw new ReplayError(
      sessionId,
      null,
      expected === 1 ? 'it has no events' : 'no remaining event records the session itself (retention removes the events of sessions closed long ago)',
    );
  }
  return {
    session,
    terminals: [...terminals.values()].map((t) => ({ terminal: t.terminal, signal: t.signal, scrollback: t.scrollback.snapshot() })),
  };
}
