import { memo } from 'react';
import { MarkdownView } from '../../ui/markdown/MarkdownView';
import type { MarkdownStream } from '../../ui/markdown/markdownStream';

/** A finished block never changes: memoised on its text, it is parsed and drawn once. */
const FinishedBlock = memo(function FinishedBlock({ source }: { source: string }) {
  return <MarkdownView source={source} />;
});

/** A streamed message as markdown: the finished blocks drawn once each, the open tail redrawn as it grows. */
export function MessageBlock({ markdown, role }: { markdown: MarkdownStream; role: 'agent' | 'user' }) {
  return (
    <div className={`acp-message acp-message-${role}`} data-testid={role === 'agent' ? 'acp-agent-message' : 'acp-user-message'}>
      {markdown.blocks.map((block, i) => (
        <FinishedBlock key={i} source={block} />
      ))}
      {markdown.tail !== '' && <MarkdownView source={markdown.tail} />}
    </div>
  );
}
