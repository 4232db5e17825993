import { useCallback, useEffect, useState } from 'react';
import type { AcpAgent } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';
import { useAcpInstall } from './useAcpInstall';

interface Props {
  /** Starts a conversation with the agent; resolves when it started (or throws why not). */
  onStart(agentId: string): Promise<void>;
  disabled: boolean;
}

/**
 * The agents a conversation can be started with (acp.agents): the built-ins and the user's own from
 * acp-agents.json. One not installed offers Install (its progress and errors shown) where the app can install it,
 * else says it was not found; problems with acp-agents.json are listed, naming the field.
 */
export function AcpAgentPicker({ onStart, disabled }: Props) {
  const client = useConnection((s) => s.client);
  const [agents, setAgents] = useState<AcpAgent[] | null>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [starting, setStarting] = useState<string | null>(null);
  const load = useCallback(() => {
    if (!client) return;
    client.call('acp.agents', {}).then(
      (listed) => {
        setAgents(listed.agents);
        setProblems(listed.problems);
      },
      (e: unknown) => setError(errorMessage(e)),
    );
  }, [client]);
  useEffect(load, [load]);
  const installer = useAcpInstall(load);

  async function start(agentId: string): Promise<void> {
    setError(null);
    setStarting(agentId);
    try {
      await onStart(agentId);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setStarting(null);
    }
  }

  return (
    <div className="acp-picker" data-testid="acp-picker">
      {agents === null && !error && <small className="muted">Loading agents…</small>}
      {agents && (
        <ul className="acp-agents" aria-label="Agents">
          {agents.map((agent) => {
            const installed = agent.resolvedCommand !== null;
            return (
              <li key={agent.id} className="acp-agent-option">
                <button
                  type="button"
                  data-testid={`acp-agent-${agent.id}`}
                  disabled={disabled || !installed || starting !== null}
                  title={installed ? `${agent.resolvedCommand} ${agent.args.join(' ')}` : 'not installed'}
                  onClick={() => void start(agent.id)}
                >
                  {starting === agent.id ? `Starting ${agent.name}…` : agent.name}
                </button>
                <small className="muted">
                  {agent.source === 'user' ? 'your agent' : 'built-in'}
                  {installed ? '' : agent.installable ? ' · not installed' : ` · ${agent.command} not found`}
                </small>
                {!installed && agent.installable && (
                  <button type="button" className="secondary" data-testid={`acp-install-${agent.id}`} disabled={installer.installing !== null} onClick={() => installer.install(agent.id)}>
                    {installer.installing === agent.id ? 'Installing…' : `Install${agent.install ? ` ${agent.install.package}@${agent.install.version}` : ''}`}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {installer.lines.length > 0 && (
        <pre className="acp-install-log" data-testid="acp-install-log" aria-live="polite">
          {installer.lines.join('\n')}
        </pre>
      )}
      {installer.error && (
        <p className="item-error" role="alert" data-testid="acp-install-error">
          Install failed: {installer.error}
        </p>
      )}
      {problems.map((problem) => (
        <small key={problem} className="item-error" data-testid="acp-agents-problem">
          acp-agents.json: {problem}
        </small>
      ))}
      {error && (
        <p className="item-error" role="alert" data-testid="acp-start-error">
          {error}
        </p>
      )}
    </div>
  );
}
