import { useSessions } from '../../ui/sessionsStore';
import { useView } from '../../ui/viewStore';
import { useAgents } from './agentsStore';

/**
 * Brings the user to a session's launcher with the keyboard in its prompt field, an agent already picked if one is
 * named: what "Use in session" on an agent's card and "Run an agent…" in the command palette both do.
 */
export function pickAgentForSession(sessionId: string, agentName?: string): void {
  const agents = useAgents.getState();
  if (agentName) agents.chooseAgent(sessionId, agentName);
  agents.requestPromptFocus(sessionId);
  if (useSessions.getState().selectedId !== sessionId) useSessions.getState().select(sessionId);
  useView.getState().setView('session');
}
