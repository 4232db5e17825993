import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { MarkdownView } from '../../ui/markdown/MarkdownView';
import type { MarkdownStream } from '../../ui/markdown/markdownStream';
import { DeferredBlock, DRAW_AHEAD, estimatedHeight, type Column } from './DeferredBlock';

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

/** The height of the page's view (the conversation's list is never taller), without reading the layout. */
function viewHeight(): number {
  return typeof window !== 'undefined' && window.innerHeight > 0 ? window.innerHeight : 900;
}

/**
 * The first block of a streaming reply that is drawn in full: the blocks from it to the open tail fill a page's
 * height and half again. The list is at most 70% of the page's height and draws a placeholder within half its own
 * height of its view (DRAW_AHEAD), so one made beyond that is not drawn again at once while the list follows the
 * bottom, even with estimates off by a third. The blocks before it start as placeholders.
 */
function firstDrawnBlock(markdown: MarkdownStream, column: Column): number {
  let budget = viewHeight() * (1 + DRAW_AHEAD) - estimatedHeight(markdown.tail, column);
  let i = markdown.blocks.length;
  while (i > 0 && budget > 0) budget -= estimatedHeight(markdown.blocks[--i]!, column);
  return i;
}

/**
 * A streamed message as markdown: the finished blocks drawn once each, the open tail redrawn as it grows (appended to
 * while it is plain text, parsed again when it may hold markup). While it streams (`live`), a block that ends far
 * above the newest line is drawn only once it is scrolled near, or once the reply ended.
 */
export function MessageBlock({ markdown, role, live = false }: { markdown: MarkdownStream; role: 'agent' | 'user'; live?: boolean }) {
  const { tail } = markdown;
  const plain = markdown.fence === null && tail.trim() !== '' && !NOT_PLAIN.test(tail);
  const element = useRef<HTMLDivElement>(null);
  const column = useColumn(element);
  const firstDrawn = live ? firstDrawnBlock(markdown, column) : 0;
  return (
    <div ref={element} className={`acp-message acp-message-${role}`} data-testid={role === 'agent' ? 'acp-agent-message' : 'acp-user-message'}>
      {markdown.blocks.map((block, i) => (
        <DeferredBlock key={i} source={block} column={column} deferred={i < firstDrawn} live={live} />
      ))}
      {tail !== '' && (plain ? <PlainTail text={tail.trim()} /> : <MarkdownView source={tail} />)}
    </div>
  );
}
