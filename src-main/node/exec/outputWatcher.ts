import { DomainError } from '../base/domainError';
import type { Watcher } from '../../../src-preload/contract/exec';

/** The output streams a watcher can see: pipes give stdout and stderr, a PTY one merged `output`. */
export type WatchedStream = 'stdout' | 'stderr' | 'output';

/** How much of a stream's end a watcher keeps to find a match that straddles two chunks. */
export const WATCH_WINDOW_CHARS = 16 * 1024;

export interface WatchMatch {
  /** The watcher's index in the run's `watch` list. */
  watcher: number;
  event: string;
  stream: WatchedStream;
  match: string;
  /** Where the match starts in the stream, in characters from the stream's first one. */
  offset: number;
}

/** The run's own event items: a watcher may not take their names, so a reader can tell them apart. */
export const RESERVED_EVENTS = new Set(['exit', 'killed', 'timeout', 'truncated', 'recovered', 'host_stopped']);

/**
 * Compiles the watchers of a request before anything is stored, so a bad one is refused with the reason and the
 * index of the watcher at fault.
 */
export function compileWatchers(watch: readonly Watcher[]): RegExp[] {
  return watch.map((watcher, index) => {
    if (RESERVED_EVENTS.has(watcher.event)) {
      const message = `"${watcher.event}" is the name of one of the run's own events (${[...RESERVED_EVENTS].join(', ')}); pick another`;
      throw new DomainError('invalid_input', `watch[${index}].event ${message}`, { issues: [{ path: `watch.${index}.event`, message }] });
    }
    let regex: RegExp;
    try {
      regex = new RegExp(watcher.regex, 'g');
    } catch (error) {
      throw new DomainError('invalid_input', `watch[${index}].regex (event "${watcher.event}") is not a valid regular expression: ${(error as Error).message}`, {
        issues: [{ path: `watch.${index}.regex`, message: (error as Error).message }],
      });
    }
    if (regex.test('')) {
      const message = 'it matches the empty string, so it would fire at every position; make it match at least one character';
      throw new DomainError('invalid_input', `watch[${index}].regex (event "${watcher.event}") ${message}`, { issues: [{ path: `watch.${index}.regex`, message }] });
    }
    return regex;
  });
}

/** Whether a watcher with this scope looks at that stream. A PTY merges stdout and stderr: every watcher sees it. */
function watches(scope: Watcher['scope'], stream: WatchedStream): boolean {
  if (stream === 'output') return true;
  return scope === undefined || scope === 'both' || scope === 'output' || scope === stream;
}

interface StreamWindow {
  /** The stream's last characters (at most WATCH_WINDOW_CHARS after a chunk is searched). */
  text: string;
  /** Offset in the stream of text[0]. */
  start: number;
  /** Offset just past the last match reported: a match must start at or after it, so nothing fires twice. */
  searchFrom: number;
}

/**
 * One watcher over a run's streams. Each stream keeps a bounded window of its end; a new chunk is searched together
 * with that window, from the end of the last match on, so a match cut in two by a chunk boundary is found once the
 * second half arrives, and a match already reported is never reported again. A match longer than the window may be
 * missed; `once` stops the watcher after its first match.
 */
class StreamWatcher {
  private readonly windows = new Map<WatchedStream, StreamWindow>();
  private done = false;

  constructor(
    private readonly index: number,
    private readonly watcher: Watcher,
    private readonly regex: RegExp,
  ) {}

  feed(stream: WatchedStream, chunk: string, found: WatchMatch[]): void {
    if (this.done || !watches(this.watcher.scope, stream)) return;
    let window = this.windows.get(stream);
    if (!window) {
      window = { text: '', start: 0, searchFrom: 0 };
      this.windows.set(stream, window);
    }
    window.text += chunk;
    this.regex.lastIndex = Math.max(0, window.searchFrom - window.start);
    for (let match = this.regex.exec(window.text); match; match = this.regex.exec(window.text)) {
      const offset = window.start + match.index;
      // An empty match (a lookahead, say) moves the search on by one character, or it would be found forever.
      if (match[0].length === 0) this.regex.lastIndex++;
      window.searchFrom = offset + Math.max(1, match[0].length);
      found.push({ watcher: this.index, event: this.watcher.event, stream, match: match[0], offset });
      if (this.watcher.once) {
        this.done = true;
        this.windows.clear();
        return;
      }
    }
    if (window.text.length > WATCH_WINDOW_CHARS) {
      const cut = window.text.length - WATCH_WINDOW_CHARS;
      window.text = window.text.slice(cut);
      window.start += cut;
    }
  }
}

/** The watchers of one run attempt. */
export class OutputWatcher {
  private readonly watchers: StreamWatcher[];

  constructor(watch: readonly Watcher[]) {
    const regexes = compileWatchers(watch);
    this.watchers = watch.map((watcher, index) => new StreamWatcher(index, watcher, regexes[index]));
  }

  get empty(): boolean {
    return this.watchers.length === 0;
  }

  /** The matches a chunk completes, in watcher order. */
  feed(stream: WatchedStream, chunk: string): WatchMatch[] {
    const found: WatchMatch[] = [];
    for (const watcher of this.watchers) watcher.feed(stream, chunk, found);
    return found;
  }
}
