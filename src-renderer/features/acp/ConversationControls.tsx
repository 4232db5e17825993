import { useState } from 'react';
import type { AcpConversation } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';

type Action = 'acp.cancel' | 'acp.resume' | 'acp.stop';

/**
 * What the user can do with the agent now: stop the turn (acp.cancel) while one runs, resume a stopped or failed
 * conversation the agent can load again, stop the agent, and pick its mode and model where it offers them.
 */
export function ConversationControls({ conversation }: { conversation: AcpConversation }) {
  const client = useConnection((s) => s.client);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { status } = conversation;
  const live = status === 'starting' || status === 'ready' || status === 'prompting';
  const conversationId = conversation.id;

  async function run(what: string, call: () => Promise<unknown>): Promise<void> {
    setBusy(what);
    setError(null);
    try {
      await call();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(null);
    }
  }
  const act = (action: Action) => client && void run(action, () => client.call(action, { conversationId }));

  return (
    <div className="acp-controls">
      {conversation.modes && conversation.modes.available.length > 0 && (
        <select
          aria-label="Agent mode"
          data-testid="acp-mode"
          disabled={!client || !live || busy !== null}
          value={conversation.modes.currentModeId}
          onChange={(event) => client && void run('mode', () => client.call('acp.setMode', { conversationId, modeId: event.target.value }))}
        >
          {conversation.modes.available.map((mode) => (
            <option key={mode.id} value={mode.id} title={mode.description ?? undefined}>
              {mode.name}
            </option>
          ))}
        </select>
      )}
      {conversation.models && conversation.models.available.length > 0 && (
        <select
          aria-label="Model"
          data-testid="acp-model"
          disabled={!client || !live || busy !== null}
          value={conversation.models.current}
          onChange={(event) => client && void run('model', () => client.call('acp.setModel', { conversationId, model: event.target.value }))}
        >
          {conversation.models.available.map((model) => (
            <option key={model.value} value={model.value}>
              {model.name}
            </option>
          ))}
        </select>
      )}
      {status === 'prompting' && (
        <button type="button" data-testid="acp-cancel" disabled={!client || busy !== null} onClick={() => act('acp.cancel')}>
          Stop turn
        </button>
      )}
      {(status === 'stopped' || status === 'failed') && conversation.resumable && (
        <button type="button" data-testid="acp-resume" disabled={!client || busy !== null} onClick={() => act('acp.resume')}>
          {busy === 'acp.resume' ? 'Resuming…' : 'Resume'}
        </button>
      )}
      {live && (
        <button type="button" className="secondary" data-testid="acp-stop" disabled={!client || busy !== null} onClick={() => act('acp.stop')}>
          Stop agent
        </button>
      )}
      {error && (
        <small className="item-error" role="alert" data-testid="acp-control-error">
          {error}
        </small>
      )}
    </div>
  );
}
