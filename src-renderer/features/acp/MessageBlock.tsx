import { memo, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { MarkdownView } from '../../ui/markdown/MarkdownView';
import type { MarkdownStream } from '../../ui/markdown/markdownStream';

/** A line of text in the message column, as the column was last measured (0: not yet). */
interface Column {
  /** Characters on a line, roughly. */
  chars: number;
  lineHeightPx: number;
}

/**
 * A finished block's height before it was ever laid out, roughly: what it holds for the scrollbar while it is skipped
 * (content-visibility). A reply streaming faster than it is read ends many blocks per frame, most of them above the
 * view by the time it is drawn; a small placeholder would put each in view and have it laid out and shaped in full.
 */
function estimatedHeight(source: string, column: Column): number {
  let lines = 0;
  for (const line of source.split('\n')) lines += Math.max(1, Math.ceil(line.length / column.chars));
  return Math.round(lines * column.lineHeightPx);
}

/** A finished block never changes: memoised on its text, it is parsed and drawn once. */
const FinishedBlock = memo(function FinishedBlock({ source, column }: { source: string; column: Column }) {
  const style = column.chars > 0 ? { containIntrinsicSize: `auto ${estimatedHeight(source, column)}px` } : undefined;
  return (
    <div className="acp-block" style={style}>
      <MarkdownView source={source} />
    </div>
  );
});

const NOT_MEASURED: Column = { chars: 0, lineHeightPx: 0 };

/** The message column's line length, measured off the layout (a ResizeObserver), never by forcing it. */
function useColumn(element: RefObject<HTMLElement | null>): Column {
  const [column, setColumn] = useState(NOT_MEASURED);
  useEffect(() => {
    const target = element.current;
    if (!target || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver((entries) => {
      const width = entries.at(-1)!.contentRect.width;
      const style = getComputedStyle(target);
      const fontPx = parseFloat(style.fontSize) || 16;
      const lineHeightPx = parseFloat(style.lineHeight) || fontPx * 1.5;
      // An average glyph of proportional text is about half the font size wide.
      const chars = Math.max(1, Math.floor(width / (fontPx * 0.5)));
      setColumn((before) => (before.chars === chars && before.lineHeightPx === lineHeightPx ? before : { chars, lineHeightPx }));
    });
    observer.observe(target);
    return () => observer.disconnect();
  }, [element]);
  return column;
}

/**
 * What keeps a tail from being one plain paragraph: a line break, a character that may open block syntax at its
 * start (heading, quote, list, rule, fence, ordered list) or inline markup anywhere (code, emphasis, link, escape).
 * Conservative: a tail that only might be markup goes to the parser.
 */
const NOT_PLAIN = /^\s*[#>*+\-_`~=\d]|[\n\r*_`[\\]/;

/**
 * The open tail while it is one plain line: a text node that is only appended to. The parsed tail re-rendered each
 * frame replaces the whole paragraph's text, and the browser then shapes and lays out all of it again; appending
 * leaves it only the new text. It renders what MarkdownView renders for such a line (a paragraph of the text).
 */
function PlainTail({ text }: { text: string }) {
  // React writes the first text and never again (its children stay the same); later text is appended here.
  const [first] = useState(text);
  const paragraph = useRef<HTMLParagraphElement>(null);
  const shown = useRef(text);
  useLayoutEffect(() => {
    const p = paragraph.current;
    if (!p || text === shown.current) return;
    const node = p.firstChild;
    if (node?.nodeType === Node.TEXT_NODE && text.startsWith(shown.current)) (node as Text).appendData(text.slice(shown.current.length));
    else p.textContent = text;
    shown.current = text;
  }, [text]);
  return (
    <div className="markdown-body" data-testid="markdown-body">
      <p ref={paragraph}>{first}</p>
    </div>
  );
}

/**
 * A streamed message as markdown: the finished blocks drawn once each, the open tail redrawn as it grows (appended to
 * while it is plain text, parsed again when it may hold markup).
 */
export function MessageBlock({ markdown, role }: { markdown: MarkdownStream; role: 'agent' | 'user' }) {
  const { tail } = markdown;
  const plain = markdown.fence === null && tail.trim() !== '' && !NOT_PLAIN.test(tail);
  const element = useRef<HTMLDivElement>(null);
  const column = useColumn(element);
  return (
    <div ref={element} className={`acp-message acp-message-${role}`} data-testid={role === 'agent' ? 'acp-agent-message' : 'acp-user-message'}>
      {markdown.blocks.map((block, i) => (
        <FinishedBlock key={i} source={block} column={column} />
      ))}
      {tail !== '' && (plain ? <PlainTail text={tail.trim()} /> : <MarkdownView source={tail} />)}
    </div>
  );
}
