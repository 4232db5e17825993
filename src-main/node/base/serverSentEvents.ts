/** One server-sent event: its `event:` name ("message" when none was given) and its data lines joined with "\n". */
export interface ServerSentEvent {
  event: string;
  data: string;
}

/**
 * An incremental reader of a text/event-stream body (the WHATWG "server-sent events" format): feed it chunks as they
 * arrive, in any split (a line, a multi-byte character or the "\r\n" itself may straddle two chunks), and it gives
 * back the events completed so far. Comments (":" lines), `id:` and `retry:` are read and ignored: these are one-shot
 * model responses, never reconnected.
 */
export class SseParser {
  private readonly decoder = new TextDecoder('utf-8');
  private pending = '';
  /** A chunk ended on "\r": a "\n" starting the next one belongs to the same line break. */
  private skipLeadingLf = false;
  private eventName = '';
  private dataLines: string[] = [];

  /** The events a chunk completed. */
  push(chunk: Uint8Array | string): ServerSentEvent[] {
    let text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    if (this.skipLeadingLf && text.startsWith('\n')) text = text.slice(1);
    this.skipLeadingLf = false;
    this.pending += text;
    const events: ServerSentEvent[] = [];
    let start = 0;
    for (let i = 0; i < this.pending.length; i++) {
      const char = this.pending[i];
      if (char !== '\n' && char !== '\r') continue;
      this.line(this.pending.slice(start, i), events);
      if (char === '\r') {
        if (i + 1 < this.pending.length) {
          if (this.pending[i + 1] === '\n') i++;
        } else {
          this.skipLeadingLf = true;
        }
      }
      start = i + 1;
    }
    this.pending = this.pending.slice(start);
    return events;
  }

  /** The end of the body: an event without its closing blank line is dropped, as the format says. */
  end(): ServerSentEvent[] {
    const events = this.push(this.decoder.decode());
    this.pending = '';
    this.dataLines = [];
    this.eventName = '';
    return events;
  }

  private line(line: string, events: ServerSentEvent[]): void {
    if (line === '') {
      if (this.dataLines.length > 0) events.push({ event: this.eventName || 'message', data: this.dataLines.join('\n') });
      this.dataLines = [];
      this.eventName = '';
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.dataLines.push(value);
    else if (field === 'event') this.eventName = value;
  }
}

/** The events of a whole streamed body, as they complete (an event the stream cuts off is not yielded). */
export async function* readServerSentEvents(body: AsyncIterable<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  const parser = new SseParser();
  for await (const chunk of body) yield* parser.push(chunk);
  yield* parser.end();
}
