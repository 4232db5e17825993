/**
 * Markdown that arrives in pieces (an agent's streamed reply), cut into blocks as it comes: a blank line outside a
 * code fence ends a block, which never changes again. A view renders each finished block once and re-parses only
 * the open tail, so a long reply streaming in costs the tail's size per frame, not the whole reply's.
 */
export interface MarkdownStream {
  /** Finished blocks, each a markdown source of its own. */
  readonly blocks: readonly string[];
  /** The block still being written. */
  readonly tail: string;
  /** The fence marker (``` or ~~~) of a code block the tail is inside, or null. */
  readonly fence: string | null;
  /** How much of the tail is already scanned: only lines after it are looked at again. */
  readonly scanned: number;
}

export const emptyMarkdownStream: MarkdownStream = { blocks: [], tail: '', fence: null, scanned: 0 };

const FENCE = /^\s{0,3}(```|~~~)/;

/** The stream with `text` appended; the old value is left as it was. */
export function appendMarkdown(stream: MarkdownStream, text: string): MarkdownStream {
  // The tail after `scanned` holds no line break, so only `text` can end a line. Most chunks end none: they are only
  // joined on (searching the joined tail would flatten it, a copy of the whole open block per chunk).
  if (!text.includes('\n')) return { blocks: stream.blocks, tail: stream.tail + text, fence: stream.fence, scanned: stream.scanned };
  let tail = stream.tail + text;
  let { fence, scanned } = stream;
  let blocks = stream.blocks;
  let lineStart = scanned;
  for (let newline = tail.indexOf('\n', lineStart); newline !== -1; newline = tail.indexOf('\n', lineStart)) {
    const line = tail.slice(lineStart, newline);
    const marker = FENCE.exec(line)?.[1];
    if (marker && (fence === null || fence === marker)) fence = fence === null ? marker : null;
    else if (fence === null && line.trim() === '' && tail.slice(0, lineStart).trim() !== '') {
      if (blocks === stream.blocks) blocks = [...blocks];
      (blocks as string[]).push(tail.slice(0, lineStart));
      tail = tail.slice(newline + 1);
      lineStart = 0;
      continue;
    }
    lineStart = newline + 1;
  }
  scanned = lineStart;
  return { blocks, tail, fence, scanned };
}

/** The whole text of the stream, as it was sent (the blank lines between blocks included). */
export function markdownText(stream: MarkdownStream): string {
  return stream.blocks.map((block) => `${block}\n`).join('') + stream.tail;
}
