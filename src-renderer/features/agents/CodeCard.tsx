import type { ReactNode } from 'react';
import { highlightLine, languageOf, type Token } from './highlight';
import { stateAtLine } from './lineStates';
import { LinesView } from './LinesView';
import { cardLine, cardLineCount, type OutputCardModel } from './runModel';

export function TokenSpans({ tokens }: { tokens: Token[] }): ReactNode {
  return tokens.map((token, i) =>
    token.type === 'plain' ? (
      token.text
    ) : (
      <span key={i} className={`tok-${token.type}`}>
        {token.text}
      </span>
    ),
  );
}

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
