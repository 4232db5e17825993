import type { SessionState } from '../metaShell/sessionState';

/**
 * The prompt the host builds from session.json and context.md, in the form spec/meta-state-files.md gives:
 * "Current State: Phase 1 (Executing Task 02), Context: [Content of context.md]". Every agent of a goal run gets it,
 * so each one sees where the run is and the source of truth, from the files rather than from memory.
 */
export function buildStatePrompt(state: SessionState, context: string | null): string {
  return `Current State: Phase ${state.currentPhase} (${describePosition(state)}), Context: ${context ?? '(there is no .meta/context.md)'}`;
}

function describePosition(state: SessionState): string {
  const tasks = state.plan?.tasks ?? [];
  const task = state.plan ? tasks[state.plan.currentTaskIdx] : undefined;
  switch (state.status) {
    case 'planning':
      return 'Planning';
    case 'executing':
      return task ? `Executing Task ${task.id}` : allDone(tasks);
    case 'verifying':
      return task ? `Verifying Task ${task.id}` : allDone(tasks);
    case 'halted':
      return task ? `Halted at Task ${task.id}` : 'Halted';
  }
}

const allDone = (tasks: readonly unknown[]): string => `All ${tasks.length} tasks complete`;

/** "Current Phase Focus: Phase 2 …" in context.md sets the phase the run reports; absent, it stays as it is. */
export function phaseFromContext(context: string): number | null {
  const match = /^#{1,6}\s*current phase focus\s*$[\s\S]*?\bphase\s+(\d+)/im.exec(context);
  return match ? Number(match[1]) : null;
}
