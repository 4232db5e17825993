/** How much of a rejected frame its error quotes: enough to recognise it, not a 32 MiB message. */
const QUOTED_CHARS = 120;

/**
 * A frame from the child that is not JSON, not one of FromChild, or larger than allowed: the child is broken or
 * hostile, and the agent it runs is ended with this error's message.
 */
export class ChildFrameError extends Error {
  constructor(
    readonly problem: string,
    /** The frame's text, when it was read at all. */
    readonly frame?: string,
  ) {
    super(`the agent's process sent a malformed frame (${problem})${frame === undefined ? '' : `: ${JSON.stringify(quote(frame))}`}`);
    this.name = 'ChildFrameError';
  }
}

function quote(frame: string): string {
  return frame.length > QUOTED_CHARS ? `${frame.slice(0, QUOTED_CHARS)}… (${frame.length} characters)` : frame;
}
