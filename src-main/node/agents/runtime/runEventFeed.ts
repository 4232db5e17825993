import { DomainError } from '../../base/domainError';
import type { AgentRunEvent } from '../../../../src-preload/contract/agents';
import type { Disposable, StreamSink } from '../../../../src-preload/rpc';
import type { AgentRun } from './agentRun';

/**
 * Live events wait this long before they are sent, so the chunks an agent emits within it travel as one event. At
 * 10,000 chunks/s that is one message per 80 chunks instead of one each: the page parses, validates and applies
 * about a frame's worth at once. Per-chunk messages keep the renderer's main thread saturated and the chunks late
 * (docs/performance.md#agent-cards).
 */
export const COALESCE_MS = 8;
/** A merged output event is at most this long, so a replay of a huge card goes in pieces the consumer's credit paces. */
export const MAX_MERGED_CHARS = 256 * 1024;
/** Output waiting for a consumer that stopped taking it: past this much the stream ends with OVERFLOW. */
export const MAX_WAITING_CHARS = 64 * 1024 * 1024;

type OutputEvent = Extract<AgentRunEvent, { kind: 'output' }>;

/** Whether `next` may be appended to `output`: text for the same card, the same way (an image replaces its data). */
function continues(output: OutputEvent, next: AgentRunEvent): next is OutputEvent {
  return (
    next.kind === 'output' &&
    next.cardId === output.cardId &&
    next.cardKind === output.cardKind &&
    next.contentType === output.contentType &&
    next.language === output.language &&
    output.cardKind !== 'image'
  );
}

const charsOf = (event: AgentRunEvent): number => (event.kind === 'output' ? event.data.length : 0);

/**
 * One subscriber's view of a run (`agent.events`): the replay from the run's start, then live events, in one order.
 * Consecutive output chunks for the same card are joined into one event (up to MAX_MERGED_CHARS), and events are
 * sent only while the consumer has credit: a replay of a card with a million lines goes out as fast as the page
 * takes it, instead of being queued whole (which overflowed the stream's queue and left the card empty).
 */
export class RunEventFeed implements Disposable {
  private waiting: AgentRunEvent[];
  private next = 0;
  private waitingChars = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly live: Disposable | undefined;
  private done = false;

  constructor(
    run: AgentRun,
    private readonly sink: StreamSink<AgentRunEvent>,
    private readonly coalesceMs = COALESCE_MS,
  ) {
    // The replay is taken and the listener added in the same synchronous step, so nothing falls between them.
    this.waiting = [...run.replay()];
    for (const event of this.waiting) this.waitingChars += charsOf(event);
    if (!run.ended) this.live = run.onDidAppend((event) => this.add(event));
    sink.onFlowControl(
      () => undefined,
      () => this.pump(),
    );
    this.pump();
  }

  private add(event: AgentRunEvent): void {
    if (this.done) return;
    this.waiting.push(event);
    this.waitingChars += charsOf(event);
    if (this.waitingChars > MAX_WAITING_CHARS) {
      this.finish(new DomainError('limit', 'the page fell too far behind this run\u2019s output and the stream was closed; open the session again'));
      return;
    }
    this.timer ??= setTimeout(() => this.pump(), this.coalesceMs);
  }

  /** Sends what waits, joining output chunks, until the consumer's credit runs out (its return resumes this). */
  private pump(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    while (!this.done && this.next < this.waiting.length && !this.sink.isPaused && !this.sink.isClosed) {
      let event = this.waiting[this.next++];
      this.waitingChars -= charsOf(event);
      if (event.kind === 'output') {
        const parts = [event.data];
        let length = event.data.length;
        for (let following = this.waiting[this.next]; following && continues(event, following) && length + following.data.length <= MAX_MERGED_CHARS; following = this.waiting[this.next]) {
          parts.push(following.data);
          length += following.data.length;
          this.waitingChars -= following.data.length;
          this.next++;
        }
        if (parts.length > 1) event = { ...event, data: parts.join('') };
      }
      this.sink.push(event);
      if (event.kind === 'ended') this.finish();
    }
    // Drop what has been sent once it is most of the array, so a long live run does not keep its whole history here.
    if (this.next > 1024 && this.next * 2 > this.waiting.length) {
      this.waiting = this.waiting.slice(this.next);
      this.next = 0;
    }
  }

  private finish(error?: DomainError): void {
    if (this.done) return;
    this.dispose();
    this.sink.end(error);
  }

  dispose(): void {
    this.done = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.live?.dispose();
    this.waiting = [];
  }
}
