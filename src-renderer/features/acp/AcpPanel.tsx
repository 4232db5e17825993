import './acp.css';
import { useState } from 'react';
import type { Session } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { AcpAgentPicker } from './AcpAgentPicker';
import { ConversationCard } from './ConversationCard';
import { useAcpConversations } from './useAcpConversations';

interface Props {
  session: Session;
  /** Agents with an open consent card in this session (`acp:<agent>` for ACP agents): their cards say they wait. */
  askingAgents: readonly string[];
}

/**
 * Agent Client Protocol conversations in a session (docs/acp.md): "New agent conversation" picks an agent (Claude,
 * Codex, Gemini or the user's own), and each conversation is a card, newest first. Consent cards are another
 * feature's: the session page shows them above, and passes in who is asking.
 */
export function AcpPanel({ session, askingAgents }: Props) {
  const client = useConnection((s) => s.client);
  const { conversations, loaded, error } = useAcpConversations(session.id);
  const [picking, setPicking] = useState(false);
  const open = session.status === 'open';

  async function start(agentId: string): Promise<void> {
    if (!client) return;
    await client.call('acp.start', { sessionId: session.id, agent: agentId });
    setPicking(false);
  }

  return (
    <section className="acp-panel" data-testid="acp-panel" aria-label="Agent conversations">
      <div className="acp-panel-head">
        <h3>
          Agent conversations <span className="muted">({conversations.length})</span>
        </h3>
        {/* Offered once the session's conversations are listed: a new one then shows as new, not among stored ones arriving late. */}
        <button type="button" data-testid="acp-new" aria-expanded={picking} disabled={!client || !open || !loaded} onClick={() => setPicking(!picking)}>
          New agent conversation
        </button>
      </div>
      {picking && <AcpAgentPicker onStart={start} disabled={!client || !open} />}
      {error && (
        <small className="item-error" role="alert">
          Agent conversations cannot be shown: {error}
        </small>
      )}
      {conversations.map((conversation) => (
        <ConversationCard key={conversation.id} conversation={conversation} asking={askingAgents.includes(`acp:${conversation.agentId}`)} />
      ))}
    </section>
  );
}
