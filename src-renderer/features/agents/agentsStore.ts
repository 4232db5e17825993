import { create } from 'zustand';
import type { AgentInfo, AgentRunEvent, AgentRunInfo, BrokenAgent } from '../../../src-preload/contract';
import { applyRunEvent, newRunModel, type RunModel } from './runModel';

export interface AgentsState {
  /** What `agent.list` answered last; null until it has. */
  agents: AgentInfo[] | null;
  broken: BrokenAgent[];
  listWarnings: string[];
  listError: string | null;
  /**
   * Every run the UI has seen, by run id. Kept for the page's lifetime (not per view), so a run's cards look the
   * same after the user has been elsewhere.
   */
  runs: Record<string, RunModel>;
  /** Run ids per session, oldest first. */
  runsBySession: Record<string, string[]>;
  /** The agent the session's launcher has selected (remembered across view switches). */
  chosenAgent: Record<string, string>;
  setList(list: { agents: AgentInfo[]; broken: BrokenAgent[]; warnings: string[] }): void;
  setListError(error: string | null): void;
  /** Adds or refreshes runs from the host's record (events already applied are kept). */
  upsertRuns(runs: AgentRunInfo[]): void;
  /** Forgets a run's events before its stream replays them from the start. */
  resetRun(runId: string): void;
  applyEvents(runId: string, events: AgentRunEvent[]): void;
  /** The host cannot give the run's events any more (e.g. it restarted and forgot the run): say so, stop following. */
  markUnavailable(runId: string, reason: string): void;
  chooseAgent(sessionId: string, agent: string): void;
  /** A session whose prompt field should take the keyboard (the user picked an agent in the Agents view). */
  promptFocus: string | null;
  requestPromptFocus(sessionId: string | null): void;
}

export const useAgents = create<AgentsState>((set) => ({
  agents: null,
  broken: [],
  listWarnings: [],
  listError: null,
  runs: {},
  runsBySession: {},
  chosenAgent: {},
  promptFocus: null,
  requestPromptFocus(promptFocus) {
    set({ promptFocus });
  },
  setList({ agents, broken, warnings }) {
    set({ agents, broken, listWarnings: warnings, listError: null });
  },
  setListError(listError) {
    set({ listError });
  },
  upsertRuns(infos) {
    set((state) => {
      const runs = { ...state.runs };
      const runsBySession = { ...state.runsBySession };
      for (const info of infos) {
        const known = runs[info.id];
        // A run that has ended in the stream already carries its final record; an older answer must not undo it.
        runs[info.id] = known ? (known.complete ? known : { ...known, info: { ...known.info, ...info } }) : newRunModel(info);
        const ids = runsBySession[info.sessionId] ?? [];
        if (!ids.includes(info.id)) {
          runsBySession[info.sessionId] = [...ids, info.id].sort((a, b) => (runs[a]?.info.startedAt ?? 0) - (runs[b]?.info.startedAt ?? 0));
        }
      }
      return { runs, runsBySession };
    });
  },
  resetRun(runId) {
    set((state) => {
      const known = state.runs[runId];
      return known ? { runs: { ...state.runs, [runId]: newRunModel(known.info) } } : state;
    });
  },
  applyEvents(runId, events) {
    set((state) => {
      const known = state.runs[runId];
      if (!known) return state;
      let run = known;
      for (const event of events) run = applyRunEvent(run, event);
      return { runs: { ...state.runs, [runId]: run } };
    });
  },
  markUnavailable(runId, reason) {
    set((state) => {
      const known = state.runs[runId];
      if (!known || known.complete) return state;
      const errors = [...known.errors, { code: 'run_unavailable', message: reason, hint: 'Start the agent again if you still need its output.' }];
      return { runs: { ...state.runs, [runId]: { ...known, errors, complete: true, unavailable: true } } };
    });
  },
  chooseAgent(sessionId, agent) {
    set((state) => ({ chosenAgent: { ...state.chosenAgent, [sessionId]: agent } }));
  },
}));
