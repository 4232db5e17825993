import { type Terminal, type TerminalEvent } from '../../../src-preload/contract';
import { DomainError } from '../base/domainError';
import { DisposableStore, Emitter, type Disposable, type StreamSink } from '../../../src-preload/rpc';
import { newId } from '../base/ids';
import type { Ledger } from '../ledger/ledger';
import type { SessionService } from '../sessions/sessionService';
import { PtyProcess } from './ptyProcess';
import { SCROLLBACK_CHARS, Scrollback } from './scrollback';
import type { TerminalChange, TerminalListChange } from './terminalChange';

/** What a terminal looks like right now, as the event log's replay rebuilds it. */
export interface TerminalView {
  terminal: Terminal;
  signal: number | null;
  scrollback: string;
}

interface LiveTerminal {
  info: Terminal;
  pty: PtyProcess;
  scrollback: Scrollback;
  owner: DisposableStore;
  /** Open output streams, ended with CLOSED when the terminal is closed. */
  readers: Set<StreamSink<TerminalEvent>>;
}

/** What a terminal's shell sees of the host's environment: the user's, minus the host's own secrets and plumbing. */
function shellEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || key.startsWith('OMNI_') || key.startsWith('ELECTRON_') || key.startsWith('npm_')) continue;
    env[key] = value;
  }
  env.TERM = 'xterm-256color';
  env.COLORTERM = 'truecolor';
  env.TERM_PROGRAM = 'OmniscientShell';
  return env;
}

function defaultShell(): { shell: string; args: string[] } {
  if (process.platform === 'win32') return { shell: process.env.COMSPEC ?? 'powershell.exe', args: [] };
  return { shell: process.env.SHELL || '/bin/bash', args: [] };
}

/** Shells in pseudo-terminals, one per terminal card, running in their session's workspace. */
export class TerminalService implements Disposable {
  private readonly terminals = new Map<string, LiveTerminal>();
  private readonly changed = new Emitter<TerminalChange>();
  /** Fires only for terminals still listed: once `closed` fired, nothing more is heard of that terminal. */
  readonly onDidChange = this.changed.event;
  private readonly listChanged = new Emitter<TerminalListChange>();
  /**
   * The changes that change the session's terminal list (everything but output), apart from the output's hot path:
   * a listener here costs a chunk of output nothing.
   */
  readonly onDidChangeList = this.listChanged.event;

  constructor(
    private readonly sessions: SessionService,
    private readonly ledger: Ledger,
    private readonly now: () => number = Date.now,
  ) {}

  open(sessionId: string, cols: number, rows: number, actor: string): Terminal {
    const session = this.sessions.getOpen(sessionId);
    const { shell, args } = defaultShell();
    return this.start(sessionId, { file: shell, args, cwd: session.workspace, env: shellEnvironment(), title: shell.split('/').pop() ?? shell }, cols, rows, actor);
  }

  /**
   * A terminal card running one program instead of the user's shell (a harness CLI): argv as given (no shell),
   * `env` merged over what a terminal's shell would see, minus the inherited variables `omitInherited` names (a
   * harness must not pick up the user's own provider keys). Closing the card kills the program's whole tree, after
   * `hangupGraceMs` for the program to save its state if it is still running then.
   */
  openProcess(
    sessionId: string,
    command: { file: string; args: string[]; cwd: string; env: Record<string, string>; title: string; omitInherited?: (name: string) => boolean; hangupGraceMs?: number },
    cols: number,
    rows: number,
    actor: string,
  ): Terminal {
    this.sessions.getOpen(sessionId);
    const inherited = shellEnvironment();
    if (command.omitInherited) for (const name of Object.keys(inherited)) if (command.omitInherited(name)) delete inherited[name];
    return this.start(sessionId, { ...command, env: { ...inherited, ...command.env } }, cols, rows, actor);
  }

  private start(sessionId: string, command: { file: string; args: string[]; cwd: string; env: Record<string, string>; title: string; hangupGraceMs?: number }, cols: number, rows: number, actor: string): Terminal {
    const { file: shell, args } = command;
    let pty: PtyProcess;
    try {
      pty = new PtyProcess({ shell, args, cwd: command.cwd, env: command.env, cols, rows, hangupGraceMs: command.hangupGraceMs });
    } catch (error) {
      throw new DomainError('unavailable', `could not start ${shell} in ${command.cwd}: ${(error as Error).message}`);
    }
    const info: Terminal = {
      id: newId('term'),
      sessionId,
      title: command.title,
      cwd: command.cwd,
      pid: pty.pid,
      cols,
      rows,
      status: 'running',
      exitCode: null,
      createdAt: this.now(),
    };
    const live: LiveTerminal = {
      info,
      pty,
      scrollback: new Scrollback(SCROLLBACK_CHARS),
      owner: new DisposableStore(),
      readers: new Set(),
    };
    live.owner.add(pty);
    const listed = () => this.terminals.get(info.id) === live;
    live.owner.add(
      pty.onDidData((data) => {
        live.scrollback.append(data);
        if (listed()) this.changed.fire({ kind: 'output', sessionId, terminalId: info.id, data });
      }),
    );
    live.owner.add(
      pty.onDidExit((exit) => {
        info.status = 'exited';
        info.exitCode = exit.exitCode;
        if (listed()) this.fireListChange({ kind: 'exited', sessionId, terminalId: info.id, exitCode: exit.exitCode, signal: exit.signal });
        this.ledger.append({ type: 'terminal.exit', actor: 'host', sessionId, payload: { terminalId: info.id, ...exit } });
      }),
    );
    this.terminals.set(info.id, live);
    this.fireListChange({ kind: 'opened', terminal: { ...info } });
    this.ledger.append({ type: 'terminal.open', actor, sessionId, payload: { terminalId: info.id, shell, cwd: info.cwd, pid: info.pid } });
    return { ...info };
  }

  private get(id: string): LiveTerminal {
    const live = this.terminals.get(id);
    if (!live) throw new DomainError('not_found', `no terminal with id ${id}; it may have been closed`);
    return live;
  }

  list(sessionId: string): Terminal[] {
    return [...this.terminals.values()].filter((t) => t.info.sessionId === sessionId).map((t) => ({ ...t.info }));
  }

  /** The session's terminals with their exit signal and scrollback, in the order they were opened. */
  views(sessionId: string): TerminalView[] {
    return [...this.terminals.values()]
      .filter((t) => t.info.sessionId === sessionId)
      .map((t) => ({ terminal: { ...t.info }, signal: t.pty.exit?.signal ?? null, scrollback: t.scrollback.snapshot() }));
  }

  input(id: string, data: string): void {
    this.get(id).pty.write(data);
  }

  resize(id: string, cols: number, rows: number): void {
    const live = this.get(id);
    live.info.cols = cols;
    live.info.rows = rows;
    live.pty.resize(cols, rows);
    this.fireListChange({ kind: 'resized', sessionId: live.info.sessionId, terminalId: id, cols, rows });
  }

  async close(id: string, actor: string): Promise<void> {
    const live = this.get(id);
    this.terminals.delete(id);
    this.fireListChange({ kind: 'closed', sessionId: live.info.sessionId, terminalId: id, reason: 'closed' });
    await live.pty.kill();
    for (const reader of live.readers) reader.end(new DomainError('closed', 'the terminal was closed'));
    live.owner.dispose();
    this.ledger.append({ type: 'terminal.close', actor, sessionId: live.info.sessionId, payload: { terminalId: id } });
  }

  /** Replays the scrollback, then streams live output; the pty pauses while this reader is behind. */
  attach(id: string, sink: StreamSink<TerminalEvent>): Disposable {
    const live = this.get(id);
    const reader = {};
    const subscription = new DisposableStore();
    sink.onFlowControl(
      () => live.pty.pause(reader),
      () => live.pty.resume(reader),
    );
    const replay = live.scrollback.snapshot();
    if (replay.length > 0) sink.push({ type: 'data', data: replay });
    const exit = live.pty.exit;
    if (exit) {
      sink.push({ type: 'exit', ...exit });
      sink.end();
      return subscription;
    }
    subscription.add(live.pty.readerGone(reader));
    // As the pty's UTF-8 bytes, framed as they are (StreamSink.pushText); a sink without it gets the text.
    subscription.add(live.pty.onDidData((data) => (sink.pushText ? sink.pushText(data) : sink.push({ type: 'data', data: data.text }))));
    subscription.add(
      live.pty.onDidExit((info) => {
        sink.push({ type: 'exit', ...info });
        sink.end();
      }),
    );
    live.readers.add(sink);
    subscription.add({ dispose: () => live.readers.delete(sink) });
    return subscription;
  }

  private fireListChange(change: TerminalListChange): void {
    this.changed.fire(change);
    this.listChanged.fire(change);
  }

  async dispose(): Promise<void> {
    const all = [...this.terminals.values()];
    this.terminals.clear();
    for (const live of all) this.fireListChange({ kind: 'closed', sessionId: live.info.sessionId, terminalId: live.info.id, reason: 'host-stop' });
    this.changed.dispose();
    this.listChanged.dispose();
    await Promise.all(all.map(async (live) => {
      await live.pty.kill();
      live.owner.dispose();
    }));
  }
}
