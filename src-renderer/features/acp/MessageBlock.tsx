import { memo, useLayoutEffect, useRef, useState } from 'react';
import { MarkdownView } from '../../ui/markdown/MarkdownView';
import type { MarkdownStream } from '../../ui/markdown/markdownStream';

/** A finished block never changes: memoised on its text, it is parsed and drawn once. */
const FinishedBlock = memo(function FinishedBlock({ source }: { source: string }) {
  return <MarkdownView source={source} />;
});

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
  return (
    <div className={`acp-message acp-message-${role}`} data-testid={role === 'agent' ? 'acp-agent-message' : 'acp-user-message'}>
      {markdown.blocks.map((block, i) => (
        <FinishedBlock key={i} source={block} />
      ))}
      {tail !== '' && (plain ? <PlainTail text={tail.trim()} /> : <MarkdownView source={tail} />)}
    </div>
  );
}
