// The real host (createHostServices: SQLite, ledger, consent engine, event log) as the ACP tests drive it: one
// session, every consent card collected and answered by the test's `answer` (null leaves it waiting), and a
// conversation's stored entries read back the way a card reads them (acp.updates).
import type { AcpEntry, ConsentAnswer, ConsentPrompt, ConsentPromptEvent } from '../../src-preload/contract';
import type { ConnectionContext, StreamSink } from '../../src-preload/rpc';
import { createHostServices, type HostOptions, type HostServices } from '../../src-main/node/hostServices';

export const CONNECTION: ConnectionContext = { connectionId: 1, transport: 'memory' };

export const sinkOf = <T>(push: (item: T) => void, end: () => void = () => undefined): StreamSink<T> => ({ push, end, onFlowControl: () => undefined, isPaused: false, isClosed: false });

export interface AcpTestHost {
  services: HostServices;
  sessionId: string;
  cards: ConsentPrompt[];
  /** How the test answers a consent card (allow once by default); null leaves it waiting. */
  answer: (prompt: ConsentPrompt) => ConsentAnswer | null;
  dispose(): Promise<void>;
}

/** Starts a host on `options.home` with a session on `workspace` (or reopens `sessionId` after a restart). */
export async function openAcpTestHost(options: Omit<HostOptions, 'version'>, workspace: string, sessionId?: string): Promise<AcpTestHost> {
  const services = await createHostServices({ version: '0.0.0-test', ...options });
  const id = sessionId ?? (await services.handlers['session.create']({ workspace }, CONNECTION)).id;
  const host: AcpTestHost = {
    services,
    sessionId: id,
    cards: [],
    answer: () => ({ kind: 'allow_once' }),
    async dispose() {
      prompts?.dispose();
      await services.dispose();
    },
  };
  const prompts = services.handlers['consent.prompts'](
    { sessionId: id },
    sinkOf<ConsentPromptEvent>((event) => {
      if (event.kind !== 'pending') return;
      host.cards.push(event.prompt);
      const answer = host.answer(event.prompt);
      if (answer) void services.handlers['consent.answer']({ promptId: event.prompt.id, answer }, CONNECTION);
    }),
    CONNECTION,
  );
  return host;
}

/** The conversation's stored entries after `sinceSeq`, as acp.updates replays them. */
export function storedEntries(host: AcpTestHost, conversationId: string, sinceSeq = 0): AcpEntry[] {
  const got: AcpEntry[] = [];
  host.services.handlers['acp.updates']({ conversationId, sinceSeq }, sinkOf<AcpEntry>((e) => got.push(e)), CONNECTION)?.dispose();
  return got;
}

/** The agent's reply text of a conversation as stored (every message chunk joined), read from `services` directly. */
export function storedReplyText(services: HostServices, conversationId: string): string {
  const got: AcpEntry[] = [];
  services.handlers['acp.updates']({ conversationId }, sinkOf<AcpEntry>((e) => got.push(e)), CONNECTION)?.dispose();
  return messageChunks(got).join('');
}

/** An entry's kind: the update's sessionUpdate, or the entry type (prompt, status, turn, error, notice). */
export const entryKind = (entry: AcpEntry): string => (entry.type === 'update' ? (entry.data as { sessionUpdate: string }).sessionUpdate : entry.type);

/** The agent's message chunks, one string each. */
export const messageChunks = (entries: AcpEntry[]): string[] =>
  entries.filter((entry) => entryKind(entry) === 'agent_message_chunk').map((entry) => (entry.data as { content: { text?: string } }).content.text ?? '');
