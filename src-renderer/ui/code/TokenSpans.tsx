import type { ReactNode } from 'react';
import type { Token } from './highlight';

/** A highlighted line's tokens as text in coloured spans: nothing of the text becomes markup. */
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
