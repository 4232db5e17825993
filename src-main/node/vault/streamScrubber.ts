import type { SecretScrubber } from './secretScrubber';

/**
 * The most characters a stream holds back. A line longer than this (a minified file, a full-screen program's
 * redraw) is let go from its last whitespace on, then whole, so a stream never holds more than this in memory.
 */
export const MAX_HELD_CHARS = 64 * 1024;

const PRIVATE_KEY_BEGIN = /^-----BEGIN[ A-Z0-9]*PRIVATE KEY/;
const PRIVATE_KEY_END = /-----END[ A-Z0-9]*PRIVATE KEY[ A-Z]*-----/;

/**
 * The scrubber (SecretScrubber: the same registered values and token patterns as everywhere else) for text that
 * arrives in pieces, such as a process's output read chunk by chunk: a token the reads happened to cut in two
 * ("…ghp_ab" | "cd…") is in neither piece whole, so scrubbing each piece by itself would store both halves raw.
 *
 * `push` scrubs and gives back what is safe to let go, and keeps the unfinished tail: the line still being
 * written (every pattern but the private key block lies within one line, and a token being written has no line
 * break in it yet), or a private key block whose END line has not come. The next piece is scrubbed together with
 * it; `end` (the stream ended, or the owner stops waiting for more) scrubs and gives back what is held.
 */
export class StreamScrubber {
  #held = '';
  /** A private key block too long to hold was let go as its marker; its rest is dropped up to the END line. */
  #inKey = false;

  constructor(
    private readonly scrubber: SecretScrubber,
    private readonly maxHeld = MAX_HELD_CHARS,
  ) {}

  /** Characters held back. */
  get heldChars(): number {
    return this.#held.length;
  }

  /** The scrubbed text that can be let go now (often '' while a line is unfinished). */
  push(chunk: string): string {
    let text = this.#held + chunk;
    if (this.#inKey) {
      text = this.#skipKeyRest(text);
      if (this.#inKey) return '';
    }
    const cut = this.#safeCut(text);
    this.#held = cut < text.length ? text.slice(cut) : '';
    if (cut === 0) return '';
    return this.scrubber.scrubText(cut < text.length ? text.slice(0, cut) : text);
  }

  /** Everything held, scrubbed: the stream ended, or it paused long enough that a reader should see its tail. */
  end(): string {
    const text = this.#held;
    this.#held = '';
    if (this.#inKey || text === '') return '';
    return this.scrubber.scrubText(text);
  }

  /** Where `text` may be cut so that no secret spans the cut, however the text goes on. */
  #safeCut(text: string): number {
    let cut = lineStart(text, this.maxHeld);
    const begin = text.lastIndexOf('-----BEGIN');
    if (begin >= 0 && begin < cut && PRIVATE_KEY_BEGIN.test(text.slice(begin, begin + 64))) {
      // The block goes whole, its END line included: held from BEGIN while the END line is not complete before the cut.
      const end = PRIVATE_KEY_END.exec(text.slice(begin));
      if (!end || begin + end.index + end[0].length > cut) cut = begin;
    }
    if (text.length - cut <= this.maxHeld) return cut;
    if (cut === begin) {
      // An unfinished key block longer than any key: let it go as its marker (the pattern takes a block without
      // its END to the end of the text) and drop what follows up to the END line.
      this.#inKey = true;
      return text.length;
    }
    // An endless line: let go up to its last whitespace (no token has any), failing that all of it.
    const space = lastWhitespace(text, text.length - 1, text.length - this.maxHeld);
    return space >= 0 ? space + 1 : text.length;
  }

  /** In a dropped key block: what follows its END line (and the block is over), or the tail an END may start in. */
  #skipKeyRest(text: string): string {
    const end = PRIVATE_KEY_END.exec(text);
    if (end) {
      this.#inKey = false;
      return text.slice(end.index + end[0].length);
    }
    // An END line cut in two ("-----EN" | "D RSA PRIVATE KEY-----") is found once its rest comes.
    this.#held = text.slice(Math.max(0, text.length - 64));
    return '';
  }
}

/** Where the last line of `text` starts (after its last \n or \r), looking back at most `limit` characters. */
function lineStart(text: string, limit: number): number {
  const stop = Math.max(0, text.length - limit - 1);
  for (let i = text.length - 1; i >= stop; i--) {
    const code = text.charCodeAt(i);
    if (code === 10 || code === 13) return i + 1;
  }
  return stop === 0 ? 0 : stop;
}

function lastWhitespace(text: string, from: number, to: number): number {
  for (let i = from; i >= to; i--) {
    const code = text.charCodeAt(i);
    if (code === 32 || code === 9 || code === 10 || code === 13) return i;
  }
  return -1;
}
