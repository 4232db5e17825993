// The Meta-Shell host protocol's durable core (spec/host-interface-v3.1.md, spec/meta-state-files.md); see
// docs/meta-shell-protocol.md. spawn_agent and the orchestrator build on these.
export { MetaState, DEFAULT_LOCK_TIMEOUT_MS, SessionStateCorruptError, SessionStateMissingError, type MetaStateOptions } from './metaState';
export { SessionStateSchema, SessionStateInvalidError, parseSessionState, initialSessionState, SESSION_STATUSES, TASK_STATUSES, type SessionState, type SessionStatus, type PlanTask, type JsonValue } from './sessionState';
export { StateKeyError, setAtKey } from './stateKey';
export { LockTimeoutError, LockLostError, acquireFileLock, type LockHolder, type HeldLock, type FileLockOptions } from './fileLock';
export { MetaPathError, metaPaths, type MetaPaths } from './metaFiles';
export { ContextRecorder, type ContextChange } from './contextRecorder';
export { ProgressLog, ProgressLevelError, PROGRESS_LEVELS, type ProgressLevel, type ProgressEntry, type ProgressLogOptions } from './progressLog';
export { CheckpointSignalSchema, CheckpointSignalError, parseCheckpointSignal, type CheckpointSignal } from './checkpointSignal';
export {
  CheckpointStore,
  CheckpointNotFoundError,
  CheckpointAnswerError,
  CheckpointConflictError,
  type CheckpointChange,
  type CheckpointRef,
  type CheckpointRecord,
  type CheckpointStatus,
  type CheckpointStep,
  type CheckpointStoreOptions,
  type ResumeOutcome,
} from './checkpointStore';
export { CheckpointResumer, CheckpointNotAnsweredError, type ResumeContext, type ResumeFunction } from './checkpointResumer';
export type { FieldProblem } from './schemaProblems';
export { SpawnAgentService, type SpawnAgentDeps } from './spawnAgent';
export { SpawnAgentInputError, UnknownAgentError, ResumeDataError } from './spawnAgentErrors';
export { DEFAULT_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS } from './spawnAgentInput';
export { waitForCheckpointAnswer } from './checkpointAnswerWait';
export type { SpawnCall } from './spawnCall';
export type { ThroughCheckpointsOptions } from './spawnThroughCheckpoints';
export type { AgentResponse, AgentResponseStatus, ModelHint, ResumeData, SpawnAgent, SpawnAgentOptions, SpawnContext } from './spawnAgentTypes';
