import type { agentContract } from '../../../../src-preload/contract/agents';
import type { Handlers } from '../../../../src-preload/rpc';
import type { AgentRuntime } from './agentRuntime';
import { RunEventFeed } from './runEventFeed';

/** The `agent.*` calls and streams of the contract, on the runtime; `actor` is who acts through the bridge. */
export function createAgentHandlers(runtime: AgentRuntime, actor: string): Handlers<typeof agentContract> {
  return {
    'agent.list': () => runtime.list(),
    'agent.start': ({ sessionId, agent, prompt }) => runtime.start(sessionId, agent, prompt, actor),
    'agent.runs': ({ sessionId }) => runtime.runsOf(sessionId),
    'agent.stop': ({ runId }) => runtime.stop(runId, actor),
    'agent.suspend': ({ runId }) => runtime.suspend(runId, actor),
    'agent.resume': ({ runId }) => runtime.resume(runId, actor),
    'agent.events': ({ runId }, sink) => new RunEventFeed(runtime.get(runId), sink),
  };
}
