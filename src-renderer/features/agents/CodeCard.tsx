import type { ReactNode } from 'react';
import { highlightLine, languageOf } from '../../ui/code/highlight';
import { stateAtLine } from '../../ui/code/lineStates';
import { TokenSpans } from '../../ui/code/TokenSpans';
import { LinesView } from '../../ui/lines/LinesView';
import { cardLine, cardLineCount, type OutputCardModel } from './runModel';

/** Code with syntax highlighting (ts/js, json, html, markdown; anything else plain). */
export function CodeCard({ card }: { card: OutputCardModel }) {
  const language = languageOf(card.language);
  const count = cardLineCount(card);
  const renderLine = (index: number): ReactNode => {
    const { tokens } = highlightLine(language, cardLine(card, index), stateAtLine(card.lines, language, index));
    return <TokenSpans tokens={tokens} />;
  };
  return (
    <LinesView
      count={count}
     
      renderLine={renderLine}
      label={`${card.language ?? 'plain'} code, ${count} lines`}
      testId="code-lines"
    />
  );
}
