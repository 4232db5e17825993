import { AgentEvent, SUPPORTED_EVENT_SCHEMA_VERSIONS, type AgentEvent as AgentEventType } from '../../../../src-preload/contract/agentEvents';

export type AgentEventErrorCode = 'unsupported_schema_version' | 'invalid_event';

/** An event an agent sent that the shell refuses: which rule it broke, and what the agent should send instead. */
export class AgentEventError extends Error {
  constructor(
    readonly code: AgentEventErrorCode,
    message: string,
    readonly hint: string,
  ) {
    super(`${message} (${hint})`);
    this.name = 'AgentEventError';
  }
}

/** Validates one event from an agent (already parsed from JSON, so typed unknown). */
export function parseAgentEvent(value: unknown): AgentEventType {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new AgentEventError('invalid_event', 'an event must be a JSON object', 'send {"schema_version":"0.1","type":…}');
  }
  const version = (value as Record<string, unknown>).schema_version;
  if (version === undefined) {
    throw new AgentEventError('invalid_event', 'the event has no schema_version', `every event carries "schema_version": "${SUPPORTED_EVENT_SCHEMA_VERSIONS[0]}"`);
  }
  if (!(SUPPORTED_EVENT_SCHEMA_VERSIONS as readonly unknown[]).includes(version)) {
    throw new AgentEventError(
      'unsupported_schema_version',
      `event schema_version ${JSON.stringify(version)} is not supported`,
      `this shell speaks event protocol ${SUPPORTED_EVENT_SCHEMA_VERSIONS.join(', ')}; update the agent or its SDK`,
    );
  }
  const result = AgentEvent.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue.path.length ? issue.path.join('.') : '(the event)';
    throw new AgentEventError('invalid_event', `event field ${where}: ${issue.message}`, 'see the event protocol v0.1 (agent-instructions §4) for the fields of each type');
  }
  return result.data;
}
