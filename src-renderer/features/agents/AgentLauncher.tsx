import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';
import { useAgents } from './agentsStore';
import { defaultAgent, launcherAgents } from './launcherAgents';
import { startRun } from './runActions';

/** Pick an agent, type a prompt, Start (or Enter in the prompt field). */
export function AgentLauncher({ sessionId, disabled }: { sessionId: string; disabled: boolean }) {
  const client = useConnection((s) => s.client);
  const listed = useAgents((s) => s.agents);
  const agents = listed && launcherAgents(listed);
  const chosen = useAgents((s) => s.chosenAgent[sessionId]);
  const [prompt, setPrompt] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const promptRef = useRef<HTMLInputElement>(null);
  const focusRequested = useAgents((s) => s.promptFocus === sessionId);
  useEffect(() => {
    if (!focusRequested) return;
    promptRef.current?.focus();
    useAgents.getState().requestPromptFocus(null);
  }, [focusRequested]);
  const agent = chosen && agents?.some((a) => a.name === chosen) ? chosen : (agents ? defaultAgent(agents)?.name ?? '' : '');
  const info = agents?.find((a) => a.name === agent);
  const canStart = !!client && !disabled && !busy && agent !== '' && prompt.trim() !== '';

  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    if (!client || !canStart) return;
    setBusy(true);
    setError(null);
    try {
      await startRun(client, sessionId, agent, prompt.trim());
      setPrompt('');
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="agent-launcher" onSubmit={(e) => void submit(e)} aria-label="Start an agent" data-testid="agent-launcher">
      <select
        aria-label="Agent"
        data-testid="agent-select"
        value={agent}
        disabled={disabled || !agents || agents.length === 0}
        onChange={(e) => useAgents.getState().chooseAgent(sessionId, e.target.value)}
      >
        {!agents && <option value="">Loading agents…</option>}
        {agents?.length === 0 && <option value="">No agents installed</option>}
        {agents?.map((a) => (
          <option key={`${a.source}:${a.name}`} value={a.name}>
            {a.name} {a.version}
          </option>
        ))}
      </select>
      <input
        ref={promptRef}
        type="text"
        aria-label="Prompt for the agent"
        placeholder={info?.examplePrompt ? `e.g. ${info.examplePrompt} (Enter to start)` : 'What should the agent do? (Enter to start)'}
        data-testid="agent-prompt"
        value={prompt}
        disabled={disabled}
        onChange={(e) => setPrompt(e.target.value)}
      />
      <button type="submit" data-testid="agent-start" disabled={!canStart} aria-busy={busy}>
        Start
      </button>
      {info && (info.description || info.examplePrompt) && (
        <p className="agent-blurb" data-testid="agent-blurb">
          {info.description && <span data-testid="agent-blurb-description">{info.description}</span>}
          {info.examplePrompt && (
            <>
              {' '}
              <span className="muted">Try:</span>{' '}
              <button
                type="button"
                className="link-button"
                data-testid="agent-example"
                title="Put this example in the prompt field"
                disabled={disabled}
                onClick={() => {
                  setPrompt(info.examplePrompt ?? '');
                  promptRef.current?.focus();
                }}
              >
                {info.examplePrompt}
              </button>
            </>
          )}
        </p>
      )}
      {error && (
        <small className="item-error" role="alert" data-testid="agent-start-error">
          {error}
        </small>
      )}
    </form>
  );
}
