import type { Disposable } from './disposable';

/**
 * Carries frames between one client and one server: JSON text, plus the host's binary stream items
 * (binaryFrame.ts). The same frames travel over a MessagePort in Electron and over a WebSocket in the browser, so
 * the RPC layer above never knows which.
 */
export interface Transport {
  send(frame: string | Uint8Array<ArrayBuffer>): void;
  onMessage(listener: (frame: unknown) => void): Disposable;
  onClose(listener: (reason: string) => void): Disposable;
  close(reason?: string): void;
}
