import type { AcpConversation } from '../../../src-preload/contract/acp';
import type { AcpConnection } from './acpConnection';
import type { AcpFileAccess } from './acpFileAccess';
import type { AcpTerminals } from './acpTerminals';

/** A conversation whose agent runs in this host. */
export interface Live {
  record: AcpConversation;
  connection: AcpConnection;
  acpSessionId: string;
  files: AcpFileAccess;
  terminals: AcpTerminals;
  /** Permission requests waiting for the user: aborted (answered `cancelled`) by a cancel. */
  pending: Set<AbortController>;
  /** The grants that allowed this turn's tool calls: its spent "Allow once" grants leave the list when it ends. */
  usedGrants: Set<string>;
  turn: Promise<unknown> | null;
  /**
   * While session/load replays the history the event log already holds, it is not logged again: `load` until the
   * agent answers session/load (every update dropped), `after` from then until the next prompt (the conversation's
   * own kinds only). Gemini CLI 0.61.0 answers session/load first and replays most of the history after it.
   */
  replay: 'load' | 'after' | null;
}

/** What a history replay consists of: dropped after session/load answered, until the next prompt. */
export const REPLAYED_KINDS = new Set(['user_message_chunk', 'agent_message_chunk', 'agent_thought_chunk', 'tool_call', 'tool_call_update', 'plan']);
