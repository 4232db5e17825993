// What spawn_agent throws when the caller asked for something it cannot do. What the agent itself does (fails, times
// out, sends a bad checkpoint) is not thrown: it comes back as an AgentResponse with status "error" / "timeout".

/** A spawn_agent argument that is missing or malformed; `field` is its name as the spec writes it. */
export class SpawnAgentInputError extends Error {
  constructor(
    readonly field: string,
    problem: string,
  ) {
    super(`spawn_agent: ${field} ${problem}`);
    this.name = 'SpawnAgentInputError';
  }
}

/** No installed agent has that name (or the one found is broken). */
export class UnknownAgentError extends Error {
  constructor(
    readonly agentName: string,
    readonly installed: readonly string[],
  ) {
    const known = installed.length > 0 ? `installed agents: ${installed.map((name) => `"${name}"`).join(', ')}` : 'no agents are installed';
    super(`spawn_agent: no agent named "${agentName}" is installed (${known}); install it or check the name (\`omni agent list\`)`);
    this.name = 'UnknownAgentError';
  }
}

/** resume_data names a checkpoint the host cannot resume from: unknown in this session, or not answered yet. */
export class ResumeDataError extends Error {
  constructor(
    readonly checkpointId: string,
    problem: string,
  ) {
    super(`spawn_agent: resume_data.checkpoint_id "${checkpointId}" ${problem}`);
    this.name = 'ResumeDataError';
  }
}
