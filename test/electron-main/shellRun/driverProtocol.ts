import type { StandInRecord } from '../electronStandIn/standInEvents';

/** What the test asks the app process's driver (over the app process's IPC channel). */
export type DriverCommand =
  | { cmd: 'state' }
  /** An RPC call from the page of window `windowId` (default: the first window), over the port it was given. */
  | { cmd: 'call'; windowId?: number; method: string; params: unknown }
  /** A request for `url` as the page would make it, through the registered protocol handler. */
  | { cmd: 'fetch'; url: string; method?: string }
  /** The preload's 'omni:ready' from a frame that should not get a port; how many ports that frame got. */
  | { cmd: 'ready-from'; from: 'iframe' | 'other-page' | 'foreign-window' }
  | { cmd: 'navigate'; url: string }
  | { cmd: 'open-window'; url: string }
  | { cmd: 'permission'; permission: string; requestingUrl: string; isMainFrame: boolean }
  | { cmd: 'reload' }
  | { cmd: 'minimize' }
  | { cmd: 'close-window' }
  | { cmd: 'quit' };

export type DriverRequest = DriverCommand & { id: number };

export type DriverReply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: string };

/** Everything the app process tells the test: replies, and each record of the stand-in as it happens. */
export type DriverMessage = DriverReply | { record: StandInRecord } | { flushed: true };

export interface WindowState {
  id: number;
  contentsId: number;
  url: string;
  calls: string[];
  options: Record<string, unknown>;
  loads: Array<{ url: string; status: number; headers: Record<string, string> }>;
  /** Ports the page of this window was given, and whether its latest one is still open. */
  portsReceived: number;
  connected: boolean;
}

export interface AppState {
  windows: WindowState[];
  privilegedSchemes: unknown[];
  /** Live utility processes by pid. */
  utilityPids: number[];
}
