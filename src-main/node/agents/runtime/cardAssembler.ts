import type { OutputEvent } from '../../../../src-preload/contract/agentEvents';

/** How a card shows its content, from the chunk's content_type (and the manifest's ui.hints as a tie-breaker). */
export type CardKind = 'markdown' | 'code' | 'diff' | 'log' | 'image' | 'text';

export interface Card {
  /** The chunk_id its chunks share. */
  id: string;
  agentId: string;
  kind: CardKind;
  contentType: string;
  /** For code cards: the language from `text/x-code;lang=…`. */
  language: string | null;
  /** Text cards: the text so far. Image cards: the latest base64 data. */
  content: string;
  chunks: number;
}

export function cardKindOf(contentType: string, hints: readonly string[] = []): { kind: CardKind; language: string | null } {
  const [type, ...params] = contentType.split(';').map((part) => part.trim().toLowerCase());
  const language = params.find((p) => p.startsWith('lang='))?.slice(5) ?? null;
  if (type.startsWith('image/')) return { kind: 'image', language: null };
  if (type === 'text/x-diff' || type === 'text/x-patch') return { kind: 'diff', language: null };
  if (type === 'text/x-code' || language) return { kind: 'code', language };
  if (type === 'text/x-log') return { kind: 'log', language: null };
  if (type === 'text/markdown') return { kind: 'markdown', language: null };
  return { kind: hints.includes('log') ? 'log' : 'text', language: null };
}

/**
 * Output chunks become cards (§4 "the shell assembles them into cards"): chunks with the same chunk_id append to
 * one card in arrival order; a new chunk_id opens a new card. Images replace their data (a later frame of a preview).
 */
export class CardAssembler {
  private readonly cards = new Map<string, Card>();

  constructor(private readonly hints: readonly string[] = []) {}

  /** Applies one chunk; returns the card as it now stands and whether it is new. */
  add(event: OutputEvent): { card: Card; created: boolean } {
    const existing = this.cards.get(event.chunk_id);
    if (existing) {
      existing.content = existing.kind === 'image' ? event.data : existing.content + event.data;
      existing.chunks++;
      return { card: existing, created: false };
    }
    const { kind, language } = cardKindOf(event.content_type, this.hints);
    const card: Card = { id: event.chunk_id, agentId: event.agent_id, kind, contentType: event.content_type, language, content: event.data, chunks: 1 };
    this.cards.set(card.id, card);
    return { card, created: true };
  }

  list(): Card[] {
    return [...this.cards.values()];
  }
}
