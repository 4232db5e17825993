/** One server-sent event: its `event:` name (default "message") and its `data:` lines joined by "\n". */
export type ServerSentEvent = { event: string; data: string };

/**
 * Parses a text/event-stream body (WHATWG "server-sent events" framing): events end at a blank line, `data:`
 * lines accumulate, lines starting with ":" are comments (keep-alives), CRLF and CR line ends are accepted, and a
 * chunk boundary may fall anywhere, even inside a UTF-8 sequence. An event the stream cuts off is not yielded.
 */
export async function* readServerSentEvents(body: AsyncIterable<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  let event = '';
  let data: string[] = [];
  const line = (text: string): ServerSentEvent | undefined => {
    if (text === '') {
      const done = data.length > 0 ? { event: event || 'message', data: data.join('\n') } : undefined;
      event = '';
      data = [];
      return done;
    }
    if (text.startsWith(':')) return undefined;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    return undefined;
  };
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: RegExpExecArray | null;
    const lineEnd = /\r\n|\r|\n/g;
    let start = 0;
    while ((end = lineEnd.exec(buffer)) !== null) {
      // A lone "\r" at the very end may be the first half of "\r\n": wait for the next chunk.
      if (end[0] === '\r' && end.index === buffer.length - 1) break;
      const done = line(buffer.slice(start, end.index));
      start = end.index + end[0].length;
      if (done) yield done;
    }
    buffer = buffer.slice(start);
  }
  // An event not closed by a blank line when the stream ends is dropped (as the standard says): it may be cut off.
}
