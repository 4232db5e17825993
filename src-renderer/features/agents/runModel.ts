import type { AgentRunEvent, AgentRunInfo, DeniedCall } from '../../../src-preload/contract';

export type CardKind = Extract<AgentRunEvent, { kind: 'output' }>['cardKind'];

/**
 * One output card, assembled from the run's `output` chunks that name its card id. Text is kept as complete lines
 * plus the unfinished tail, so a chunk costs its own length rather than a re-split of everything before it (a log
 * card can hold a million lines). `lines` is appended to in place; `version` changes with every append so React
 * and memoised views notice.
 */
export interface OutputCardModel {
  id: string;
  kind: CardKind;
  contentType: string;
  language: string | null;
  lines: string[];
  tail: string;
  version: number;
}

export interface RunError {
  code: string;
  message: string;
  hint: string | null;
}

export interface RunArtifact {
  id: string;
  artifactKind: string;
  path: string;
  previewHint: string | null;
}

/** A run as its card shows it: the host's record, and everything its event stream has said so far. */
export interface RunModel {
  info: AgentRunInfo;
  cards: OutputCardModel[];
  errors: RunError[];
  artifacts: RunArtifact[];
  /** The capability uses it was refused, oldest first. */
  denied: DeniedCall[];
  /** Why the run is in its current state (the latest `state` event's cause and detail). */
  stateNote: string | null;
  /** The stream said `ended`: everything is here and nothing more will come. */
  complete: boolean;
  /** The host no longer knows the run (it restarted): what is shown is all there will be, and it cannot be controlled. */
  unavailable: boolean;
}

export function newRunModel(info: AgentRunInfo): RunModel {
  return { info, cards: [], errors: [], artifacts: [], denied: [], stateNote: null, complete: false, unavailable: false };
}

/** Every line of a card, the unfinished last one included (what a view shows). */
export function cardLineCount(card: OutputCardModel): number {
  return card.lines.length + (card.tail.length > 0 ? 1 : 0);
}

export function cardLine(card: OutputCardModel, index: number): string {
  return index < card.lines.length ? card.lines[index] : card.tail;
}

export function cardText(card: OutputCardModel): string {
  return card.tail.length > 0 ? [...card.lines, card.tail].join('\n') : card.lines.join('\n');
}

function appendText(card: OutputCardModel, data: string): OutputCardModel {
  const pieces = (card.tail + data).split('\n');
  const tail = pieces.pop() ?? '';
  for (const piece of pieces) card.lines.push(piece.endsWith('\r') ? piece.slice(0, -1) : piece);
  return { ...card, tail, version: card.version + 1 };
}

/** The run after one more event from its stream. Returns a new model (cards' line arrays are shared, see above). */
export function applyRunEvent(run: RunModel, event: AgentRunEvent): RunModel {
  switch (event.kind) {
    case 'state':
      return {
        ...run,
        info: { ...run.info, state: event.state },
        stateNote: event.detail ? `${event.cause}: ${event.detail}` : event.cause,
      };
    case 'output': {
      const index = run.cards.findIndex((c) => c.id === event.cardId);
      if (index < 0) {
        const created: OutputCardModel = {
          id: event.cardId,
          kind: event.cardKind,
          contentType: event.contentType,
          language: event.language,
          lines: [],
          tail: '',
          version: 0,
        };
        // Images arrive as base64: line splitting means nothing there, so all of it stays in the tail.
        const filled = event.cardKind === 'image' ? { ...created, tail: event.data, version: 1 } : appendText(created, event.data);
        return { ...run, cards: [...run.cards, filled] };
      }
      const card = run.cards[index];
      // A later image chunk is the next frame of a preview: it replaces the picture (as the host's card assembler does).
      const updated = card.kind === 'image' ? { ...card, tail: event.data, version: card.version + 1 } : appendText(card, event.data);
      const cards = run.cards.slice();
      cards[index] = updated;
      return { ...run, cards };
    }
    case 'artifact':
      return { ...run, artifacts: [...run.artifacts, { id: event.id, artifactKind: event.artifactKind, path: event.path, previewHint: event.previewHint }] };
    case 'error':
      return { ...run, errors: [...run.errors, { code: event.code, message: event.message, hint: event.hint }] };
    case 'denied':
      return { ...run, denied: [...run.denied, event.call], info: { ...run.info, deniedCalls: Math.max(run.info.deniedCalls, run.denied.length + 1) } };
    case 'state_update':
      return run;
    case 'ended':
      return { ...run, info: event.run, complete: true };
  }
}
