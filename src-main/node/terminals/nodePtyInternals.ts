/**
 * Every use of node-pty's private fields, in one place: PtyProcess needs two things node-pty does not offer (its
 * reads as bytes, and the master descriptor to drain after an early end-of-file), and both reach past its API. A
 * node-pty upgrade that renames or reshapes these fields is caught by test/terminals/nodePtyInternals.test.ts, which
 * names the field; each function here degrades to doing nothing rather than throwing, so such an upgrade costs the
 * optimisation or the drain, never a terminal.
 *
 * What is relied on (node-pty 1.x, UnixTerminal):
 * - `_socket`: the tty.ReadStream node-pty reads the master side through (an EventEmitter with `once`);
 * - `_socket._readableState.decoder` / `.encoding`: where that stream keeps what its setEncoding set;
 * - `_fd`: the master side's file descriptor (a number).
 */
import type * as NodePty from 'node-pty';

interface ReadableStateFields {
  decoder: unknown;
  encoding: unknown;
}

interface ReadSocket {
  once(event: 'end', listener: () => void): unknown;
  _readableState?: Partial<ReadableStateFields>;
}

interface PtyInternals {
  _socket?: ReadSocket;
  _fd?: unknown;
}

const internals = (pty: NodePty.IPty): PtyInternals => pty as unknown as PtyInternals;

function readSocket(pty: NodePty.IPty): ReadSocket | null {
  const socket = internals(pty)._socket;
  return socket && typeof socket.once === 'function' ? socket : null;
}

/**
 * Undoes the setEncoding node-pty applied to its read stream, so that onData gets the reads as Buffers. Must run
 * before anything is read. False (and nothing changed) where the fields are not there.
 */
export function takeReadsAsBytes(pty: NodePty.IPty): boolean {
  const state = readSocket(pty)?._readableState;
  if (!state || !('decoder' in state) || !('encoding' in state)) return false;
  state.decoder = null;
  state.encoding = null;
  return true;
}

/** The master side's file descriptor, or null where node-pty no longer keeps it in `_fd`. */
export function masterFd(pty: NodePty.IPty): number | null {
  const fd = internals(pty)._fd;
  return typeof fd === 'number' ? fd : null;
}

/** Calls `listener` once when node-pty's read stream reaches its end; false (never called) without that stream. */
export function onceReadEnd(pty: NodePty.IPty, listener: () => void): boolean {
  const socket = readSocket(pty);
  if (!socket) return false;
  socket.once('end', listener);
  return true;
}
