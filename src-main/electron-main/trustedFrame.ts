import { isRendererUrl } from './rendererOrigin';

/** The parts of Electron's WebFrameMain the check needs (kept structural so it is testable without Electron). */
export interface FrameIdentity {
  readonly parent: unknown;
  readonly processId: number;
  readonly routingId: number;
  readonly url: string;
}

/**
 * True when `frame` is the top frame of the window whose main frame is `mainFrame`, and it shows our own app://
 * page. Iframes, pages that navigated elsewhere and frames of other windows are not trusted with a port.
 */
export function isTrustedTopFrame(mainFrame: FrameIdentity, frame: FrameIdentity | null | undefined): boolean {
  if (!frame || frame.parent !== null) return false;
  return frame.processId === mainFrame.processId && frame.routingId === mainFrame.routingId && isRendererUrl(frame.url);
}
