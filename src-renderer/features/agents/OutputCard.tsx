import { memo } from 'react';
import { CodeCard } from './CodeCard';
import { DiffCard } from './DiffCard';
import { ImageCard } from './ImageCard';
import { LogCard } from './LogCard';
import { MarkdownCard } from './MarkdownCard';
import { cardLineCount, type OutputCardModel } from './runModel';

const titles: Record<OutputCardModel['kind'], string> = {
  markdown: 'Notes',
  code: 'Code',
  diff: 'Diff',
  log: 'Log',
  image: 'Image',
  text: 'Text',
};

/** One output card of a run, drawn per its kind. Memoised: a chunk for one card leaves its siblings alone. */
export const OutputCard = memo(function OutputCard({ card }: { card: OutputCardModel }) {
  const lines = cardLineCount(card);
  const showHeader = card.kind !== 'markdown';
  return (
    <section className={`output-card output-${card.kind}`} data-testid="output-card" data-card-kind={card.kind} data-card-id={card.id} aria-label={`${titles[card.kind]} output`}>
      {showHeader && (
        <header className="output-header">
          <strong>{titles[card.kind]}</strong>
          {card.language && <span className="badge">{card.language}</span>}
          {card.kind !== 'image' && <span className="muted">{lines === 1 ? '1 line' : `${lines.toLocaleString()} lines`}</span>}
        </header>
      )}
      {card.kind === 'markdown' && <MarkdownCard card={card} />}
      {card.kind === 'code' && <CodeCard card={card} />}
      {card.kind === 'diff' && <DiffCard card={card} />}
      {(card.kind === 'log' || card.kind === 'text') && <LogCard card={card} />}
      {card.kind === 'image' && <ImageCard card={card} />}
    </section>
  );
});
