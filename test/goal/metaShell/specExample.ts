import type { SessionState } from '../../../src-main/node/goal/metaShell';

/** The runtime snapshot from spec/meta-state-files.md, verbatim. */
export const SPEC_EXAMPLE: SessionState = {
  sessionId: '550e8400-e29b-41d4-a716-446655440000',
  status: 'executing',
  currentPhase: 1,
  gapCount: 0,
  plan: {
    currentTaskIdx: 1,
    tasks: [
      { id: '01', title: 'Setup Cargo Project', status: 'complete', dependencies: [], commits: ['a1b2c3d'] },
      { id: '02', title: 'Implement SQLite Schema', status: 'pending', dependencies: ['01'], commits: [] },
      { id: '03', title: 'Build TUI List View', status: 'pending', dependencies: ['02'] },
    ],
  },
  variables: { last_verification_failed: false },
};
