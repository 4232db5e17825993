import type { OutputCardModel } from './runModel';

/** Raster types a data: URL may show; SVG is left out (it is a document, not a picture). */
const PREVIEWABLE = /^image\/(png|jpeg|gif|webp|bmp|avif)$/;

export function ImageCard({ card }: { card: OutputCardModel }) {
  const type = card.contentType.split(';')[0].trim().toLowerCase();
  const data = card.tail.replace(/\s+/g, '');
  if (!PREVIEWABLE.test(type) || !/^[A-Za-z0-9+/]*={0,2}$/.test(data)) {
    return <p className="muted">Cannot preview {card.contentType} ({data.length} characters of data).</p>;
  }
  return (
    <div className="image-preview">
      <img src={`data:${type};base64,${data}`} alt={`Image output (${type})`} data-testid="image-preview" />
    </div>
  );
}
