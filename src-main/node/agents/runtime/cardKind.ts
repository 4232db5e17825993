import type { z } from 'zod';
import type { CardKind as CardKindSchema } from '../../../../src-preload/contract/agents';

/** How a card shows its content: the contract's cardKind of an output event. */
export type CardKind = z.infer<typeof CardKindSchema>;

/** A card's kind from its chunk's content_type (and the manifest's ui.hints as a tie-breaker). */
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
