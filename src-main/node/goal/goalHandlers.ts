import { goalContract } from '../../../src-preload/contract';
import { liveListHandler, type Handlers } from '../../../src-preload/rpc';
import type { EventLog } from '../eventlog/eventLog';
import type { CheckpointStore, ContextRecorder, ProgressLog } from './metaShell';
import type { GoalRunService } from './orchestrator/goalRunTypes';
import type { SessionService } from '../sessions/sessionService';
import type { Database } from '../store/database';
import { readContextFile, writeContextFile } from './contextFile';
import { checkpointView, readSessionStateFile } from './goalViews';
import { recentProgress } from './progressHistory';

export interface GoalHandlerServices {
  db: Database;
  sessions: SessionService;
  events: EventLog;
  checkpoints: CheckpointStore;
  progress: ProgressLog;
  contextRecorder: ContextRecorder;
  /** The orchestrator: runs, halts, resumes and rolls back goal runs. */
  goalRuns: GoalRunService;
}

/** An answer as one progress line: text as typed (shortened), anything else as JSON. */
function answerExcerpt(answer: unknown): string {
  const text = typeof answer === 'string' ? answer : JSON.stringify(answer);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** Progress lines replayed to a new subscriber when it does not say how many. */
const DEFAULT_PROGRESS_REPLAY = 200;

/**
 * The `goal.*` calls and streams: the person at the UI edits context.md (each edit ledgered through ContextRecorder;
 * agents have no route to it), watches session.json, runs / halts / resumes / rolls back the goal run, and answers
 * checkpoints. Everything is scoped to a session the host knows; writes need the session to be open.
 */
export function createGoalHandlers(services: GoalHandlerServices, actor: string): Handlers<typeof goalContract> {
  const { sessions, checkpoints, progress, contextRecorder, goalRuns } = services;

  return {
    'goal.context': ({ sessionId }) => {
      const session = sessions.get(sessionId);
      const content = readContextFile(session.workspace);
      // An edit made outside the app (another editor) is noticed, and ledgered, when the editor loads the file.
      if (session.status === 'open') contextRecorder.noteContextChange(session.workspace, sessionId);
      return content;
    },
    'goal.saveContext': ({ sessionId, text, expectedSha256 }) => {
      const session = sessions.getOpen(sessionId);
      writeContextFile(session.workspace, text, expectedSha256);
      const change = contextRecorder.noteContextChange(session.workspace, sessionId);
      return { sha256: change.newSha256!, bytes: Buffer.byteLength(text), ledgerSeq: change.seq };
    },
    'goal.checkPlan': ({ text }) => goalRuns.checkPlan(text),
    'goal.sessionState': ({ sessionId }) => readSessionStateFile(sessions.get(sessionId).workspace),

    'goal.view': ({ sessionId }) => {
      sessions.get(sessionId);
      return goalRuns.view(sessionId);
    },
    'goal.start': async ({ sessionId, dirtyTree }) => {
      const session = sessions.getOpen(sessionId);
      // The run is planned from context.md: whatever it says now is in the ledger before the planner reads it.
      contextRecorder.noteContextChange(session.workspace, sessionId);
      const view = await goalRuns.start(sessionId, actor, dirtyTree);
      // "Run in a new worktree": the goal was copied into the new session's workspace; its ledger records it too.
      if (view.sessionId !== sessionId) contextRecorder.noteContextChange(sessions.get(view.sessionId).workspace, view.sessionId);
      return view;
    },
    'goal.halt': ({ sessionId }) => {
      sessions.get(sessionId);
      return goalRuns.halt(sessionId, actor);
    },
    'goal.resume': ({ sessionId, dirtyTree }) => {
      const session = sessions.getOpen(sessionId);
      contextRecorder.noteContextChange(session.workspace, sessionId);
      return goalRuns.resume(sessionId, actor, dirtyTree);
    },
    'goal.commit': ({ sessionId, commit }) => {
      sessions.get(sessionId);
      return goalRuns.showCommit(sessionId, commit);
    },
    'goal.rollback': ({ sessionId, taskId }) => {
      sessions.getOpen(sessionId);
      return goalRuns.rollback(sessionId, taskId, actor);
    },

    'goal.checkpoints': ({ sessionId }) => {
      sessions.get(sessionId);
      return checkpoints.pending(sessionId).map(checkpointView);
    },
    'goal.answer': ({ sessionId, resumeId, answer }) => {
      sessions.get(sessionId);
      const { record, accepted } = checkpoints.answer({ sessionId, resumeId }, answer, actor);
      // The progress log tells the story of the run: the question is in it (the orchestrator logs it), so the
      // answer is too, as stored (scrubbed), before the agent continues with it.
      if (accepted) progress.log(sessionId, `${actor === 'user' ? 'You' : actor} answered "${resumeId}": ${answerExcerpt(record.answer)}`);
      return { accepted, checkpoint: checkpointView(record) };
    },

    // The current view is the snapshot, so a (re)connected board never waits for the next change to show the run.
    'goal.watchRun': liveListHandler(goalContract['goal.watchRun'], {
      list: ({ sessionId }) => {
        sessions.get(sessionId);
        return [goalRuns.view(sessionId)];
      },
      onDidChange: ({ sessionId }, emit) =>
        goalRuns.onDidChange((view) => {
          if (view.sessionId === sessionId) emit({ kind: 'upsert', item: view });
        }),
    }),
    // Pending checkpoints come from the host's table, so the dialog is back after a reload or a host restart.
    'goal.watchCheckpoints': liveListHandler(goalContract['goal.watchCheckpoints'], {
      list: ({ sessionId }) => {
        sessions.get(sessionId);
        return checkpoints.pending(sessionId).map(checkpointView);
      },
      onDidChange: ({ sessionId }, emit) =>
        checkpoints.onDidChange(({ kind, record }) => {
          if (record.sessionId !== sessionId) return;
          emit(kind === 'raised' ? { kind: 'upsert', item: checkpointView(record) } : { kind: 'remove', id: record.resumeId });
        }),
    }),
    'goal.progress': ({ sessionId, replay }, sink) => {
      sessions.get(sessionId);
      // Replay and subscription happen in one synchronous step: no line can fall between the two or come twice.
      for (const entry of recentProgress(services.db, services.events, sessionId, replay ?? DEFAULT_PROGRESS_REPLAY)) {
        sink.push({ ts: entry.ts, level: entry.level, message: entry.message });
      }
      return progress.onDidLog((entry) => {
        if (entry.sessionId === sessionId) sink.push({ ts: entry.ts, level: entry.level, message: entry.message });
      });
    },
  };
}
