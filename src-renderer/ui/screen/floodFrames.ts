/** While terminal output floods in, the page draws at most this often (~30 frames a second). */
export const FLOOD_FRAME_MS = 33;

/**
 * Characters of output handed to the page's terminals since the last frame that make it a flood: several
 * screenfuls. Typing, a prompt or a full-screen program redrawing itself stays well below, so then every frame the
 * browser gives is drawn.
 */
export const FLOOD_CHARS_PER_FRAME = 32 * 1024;

type FrameWindow = Pick<Window, 'requestAnimationFrame' | 'cancelAnimationFrame'>;

interface PendingFrame {
  /** Set while the request waits for FLOOD_FRAME_MS to pass since the last frame. */
  timer?: ReturnType<typeof setTimeout>;
  /** The browser's id once the frame is requested from it. */
  frame?: number;
}

let outputSinceFrame = 0;
const limited = new WeakSet<FrameWindow>();

/**
 * Terminal screens say here how much output they hand to xterm, as they hand it over: what tells a flood from
 * ordinary output. (Counted when written, not when parsed: xterm asks for a frame while it parses a write.)
 */
export function noteOutput(characters: number): void {
  outputSinceFrame += characters;
}

/**
 * Limits the page's animation frames to one per FLOOD_FRAME_MS while terminal output floods in (at least
 * FLOOD_CHARS_PER_FRAME of it written since the last frame when another is asked for); otherwise frames come as
 * the browser gives them. Installed once per window, by the first terminal screen; returns whether it is installed.
 *
 * Why: under a flood the renderer's main thread is what limits throughput, and every frame costs it xterm's DOM
 * renderer rebuilding its rows and its viewport syncing the scrollbar (both run in animation frames), then
 * Chromium's style, layout, paint and commit. At 30 frames a second that time goes to parsing instead; nobody reads
 * text scrolling by at megabytes a second, and the frame after the last output still comes, so the screen ends on
 * it. The flood test keeps ordinary output at the browser's frame rate; the figures (with and without the limit,
 * with and without the flood test) are in docs/performance.md#terminal-throughput.
 *
 * Why the page's requestAnimationFrame and not xterm's renderer: xterm.js has no option for it, and its frames are
 * scheduled in several places (the render debouncer, the viewport, the selection), all through the window's
 * requestAnimationFrame; limiting only the row renderer gains nothing, as the viewport still draws every frame.
 * Other code that animates in the page meanwhile gets 30 frames a second too, and only during a flood.
 */
export function limitFramesInFloods(win: FrameWindow = window, now: () => number = () => performance.now()): boolean {
  if (limited.has(win)) return true;
  limited.add(win);
  const request = win.requestAnimationFrame.bind(win);
  const cancel = win.cancelAnimationFrame.bind(win);
  const pending = new Map<number, PendingFrame>();
  // Far above the browser's own ids (which count from 1), so a frame asked for before this was installed can still
  // be cancelled: an id this wrapper did not give out is the browser's.
  let nextId = 2 ** 30;
  let lastFrameAt = Number.NEGATIVE_INFINITY;
  win.requestAnimationFrame = (callback: FrameRequestCallback): number => {
    const id = nextId++;
    const entry: PendingFrame = {};
    pending.set(id, entry);
    const ask = (): void => {
      entry.timer = undefined;
      entry.frame = request((time) => {
        pending.delete(id);
        lastFrameAt = now();
        outputSinceFrame = 0;
        callback(time);
      });
    };
    const wait = lastFrameAt + FLOOD_FRAME_MS - now();
    if (wait >= 1 && outputSinceFrame >= FLOOD_CHARS_PER_FRAME) entry.timer = setTimeout(ask, wait);
    else ask();
    return id;
  };
  win.cancelAnimationFrame = (id: number): void => {
    const entry = pending.get(id);
    if (!entry) {
      cancel(id);
      return;
    }
    pending.delete(id);
    clearTimeout(entry.timer);
    if (entry.frame !== undefined) cancel(entry.frame);
  };
  return true;
}
