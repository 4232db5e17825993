import { highlightSegments } from './fuzzyScore';

/** The text with the letters the query matched marked, so the user sees why an option is listed. */
export function HighlightedText({ text, positions }: { text: string; positions: readonly number[] }) {
  if (positions.length === 0) return <>{text}</>;
  return (
    <>
      {highlightSegments(text, positions).map((segment, index) =>
        segment.matched ? (
          <mark key={index} className="palette-match">
            {segment.text}
          </mark>
        ) : (
          <span key={index}>{segment.text}</span>
        ),
      )}
    </>
  );
}
