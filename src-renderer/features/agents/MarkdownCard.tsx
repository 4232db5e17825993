import { CodeCard } from './CodeCard';
import { MarkdownView } from '../../ui/markdown/MarkdownView';
import { cardLineCount, cardText, type OutputCardModel } from './runModel';

/** Past this many lines a markdown card is shown as highlighted source, so it stays virtualised. */
const RENDERED_LINE_LIMIT = 2000;

export function MarkdownCard({ card }: { card: OutputCardModel }) {
  if (cardLineCount(card) > RENDERED_LINE_LIMIT) return <CodeCard card={{ ...card, language: 'markdown' }} />;
  return <MarkdownView source={cardText(card)} />;
}
