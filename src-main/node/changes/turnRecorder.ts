import type { TurnSource } from '../../../src-preload/contract/changes';

/** A turn being recorded: `end` takes the snapshot after it. */
export interface TurnHandle {
  /** The turn's id; null when not even its row could be written (the host log says why). */
  readonly turnId: string | null;
  /**
   * Takes the "after" snapshot and counts the files the turn changed. Call it however the turn ended (exit, kill,
   * timeout, cancel, error); a second call does nothing. Never rejects: a failure is logged and the turn's review says so.
   */
  end(): Promise<void>;
}

/**
 * What the areas that run agents see of the changes service: one call before an agent turn starts, whose answer
 * is awaited so the turn's writes land after the "before" snapshot. Never rejects: a snapshot that fails (git
 * missing, say) must not stop the agent's turn, so it is logged and the turn recorded without one.
 */
export interface TurnRecorder {
  beginTurn(sessionId: string, source: TurnSource, agent: string, title: string): Promise<TurnHandle>;
  /**
   * A turn in this session is coming (a conversation is starting): the workspace's store is opened and brought up to
   * date in the background, so the first turn's snapshot need not create it or store every file. Records nothing;
   * resolves once done, and never rejects (a failure is logged, and the first turn's snapshot tries again).
   */
  prepare(sessionId: string): Promise<void>;
}

/** The handle of a turn that could not be recorded at all. */
export const UNRECORDED_TURN: TurnHandle = { turnId: null, end: async () => undefined };
