/**
 * The few control messages between the Electron main process and the host utility process. RPC frames never
 * travel this way: they go over the per-window MessagePort that `connect` carries. Both sides parse what they
 * receive, because a message from another process is `unknown` until checked.
 */

/** Main → host. */
export type MainToHostMessage =
  /** Serve the MessagePort attached to this message for window `windowId`, replacing its previous connection. */
  | { type: 'connect'; windowId: number }
  /** Window `windowId` is gone: drop its connection. */
  | { type: 'disconnect'; windowId: number }
  /** Close the database and exit; the app is quitting. */
  | { type: 'shutdown' };

/**
 * Host → main. `home_in_use`: another host (an `omni serve`) runs on this home; restarting cannot help, so the main
 * process shows the message (which names that host) and quits.
 */
export type HostToMainMessage = { type: 'ready' } | { type: 'fatal'; message: string } | { type: 'home_in_use'; message: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

const isWindowId = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value > 0;

export function parseMainToHostMessage(value: unknown): MainToHostMessage | undefined {
  if (!isRecord(value)) return undefined;
  switch (value.type) {
    case 'connect':
    case 'disconnect':
      return isWindowId(value.windowId) ? { type: value.type, windowId: value.windowId } : undefined;
    case 'shutdown':
      return { type: 'shutdown' };
    default:
      return undefined;
  }
}

export function parseHostToMainMessage(value: unknown): HostToMainMessage | undefined {
  if (!isRecord(value)) return undefined;
  if (value.type === 'ready') return { type: 'ready' };
  if (value.type === 'fatal' || value.type === 'home_in_use') {
    return { type: value.type, message: typeof value.message === 'string' ? value.message.slice(0, 4000) : 'unknown error' };
  }
  return undefined;
}
