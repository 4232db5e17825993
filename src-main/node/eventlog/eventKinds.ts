/**
 * The kinds of event the log holds today. Later layers (agents, exec runs) add their own kinds here and teach
 * replaySession.ts what each one does to a session's state.
 */
export const EventKind = {
  /** payload: the whole Session record after the change (so a replay needs only the latest one). */
  sessionCreated: 'session.created',
  sessionUpdated: 'session.updated',
  /** payload: the Terminal as it was opened. */
  terminalOpened: 'terminal.opened',
  /** data: output text; subject: the terminal id. */
  terminalOutput: 'terminal.output',
  /** payload: { cols, rows } */
  terminalResized: 'terminal.resized',
  /** payload: { exitCode, signal } */
  terminalExited: 'terminal.exited',
  /** payload: { reason }: 'closed' by the user or its session, 'host-stop', or 'host-lost' (found open at startup). */
  terminalClosed: 'terminal.closed',
  /** payload: { level, message }: the host protocol's log_progress (host/progressLog.ts); no effect on replay. */
  hostProgress: 'host.progress',
  /** subject: the ACP conversation id; payload: { type, data } (src-main/node/acp/acpEventLog.ts); no effect on replay. */
  acpEvent: 'acp.event',
  /** subject: the agent run id; payload: its AgentRunInfo, at its start and again when it ends (agents/runtime/agentRunLog.ts). */
  agentRun: 'agent.run',
  /** subject: the agent run id; payload: one AgentRunEvent other than output (state, error, artifact, denied…). */
  agentEvent: 'agent.event',
  /** data: output text; subject: "<run id>#<card id>" (the card's kind is the `agent.event` output header before it). */
  agentOutput: 'agent.output',
  /** Written by retention in place of removed events; payload: DroppedEvents. */
  dropped: 'eventlog.dropped',
} as const;

/**
 * Output kinds whose stream ends for good with another kind of the same subject: once a terminal is closed its
 * output no longer shows anywhere, so retention may drop all of it.
 */
export const STREAM_ENDS: Readonly<Record<string, string>> = {
  [EventKind.terminalOutput]: EventKind.terminalClosed,
};

/** What a retention marker says about the events it stands for: seqs `seq`..`through` of its session. */
export interface DroppedEvents {
  through: number;
  /** How many events were removed and how many bytes of output they held. */
  events: number;
  bytes: number;
  reason: 'output-budget' | 'expired';
}
