import { useState, type FormEvent } from 'react';
import { RpcError } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';
import { useSessions } from '../../ui/sessionsStore';

interface FieldErrors {
  workspace?: string;
  name?: string;
}

/** Splits a host error over the two fields: a `name` issue goes under Name, anything else under Workspace. */
function toFieldErrors(error: unknown): FieldErrors {
  if (error instanceof RpcError && error.issues?.some((issue) => issue.path === 'name')) return { name: error.message };
  return { workspace: errorMessage(error) };
}

/** Creates a session on a workspace folder; the host checks the folder and its answer is shown under the field. */
export function NewSessionForm() {
  const client = useConnection((s) => s.client);
  const userHome = useConnection((s) => s.hostInfo?.userHome);
  const [workspace, setWorkspace] = useState('');
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    if (!client || busy) return;
    setBusy(true);
    setErrors({});
    try {
      const trimmedName = name.trim();
      const session = await client.call('session.create', { workspace: workspace.trim(), ...(trimmedName ? { name: trimmedName } : {}) });
      useSessions.getState().apply({ kind: 'created', session });
      useSessions.getState().select(session.id);
      setWorkspace('');
      setName('');
    } catch (error) {
      setErrors(toFieldErrors(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="new-session" aria-label="New session" onSubmit={(e) => void submit(e)} noValidate>
      <label>
        Workspace folder
        <input
          name="workspace"
          data-testid="new-session-workspace"
          placeholder={userHome ? `${userHome}/project` : '/path/to/project'}
          value={workspace}
          required
          spellCheck={false}
          autoComplete="off"
          aria-invalid={errors.workspace ? true : undefined}
          aria-describedby={errors.workspace ? 'new-session-workspace-error' : undefined}
          onChange={(e) => setWorkspace(e.target.value)}
        />
        {errors.workspace && (
          <small id="new-session-workspace-error" role="alert" data-testid="new-session-error">
            {errors.workspace}
          </small>
        )}
      </label>
      <label>
        Name <span className="muted">(optional)</span>
        <input
          name="name"
          data-testid="new-session-name"
          value={name}
          autoComplete="off"
          aria-invalid={errors.name ? true : undefined}
          aria-describedby={errors.name ? 'new-session-name-error' : undefined}
          onChange={(e) => setName(e.target.value)}
        />
        {errors.name && (
          <small id="new-session-name-error" role="alert" data-testid="new-session-error">
            {errors.name}
          </small>
        )}
      </label>
      <button type="submit" disabled={!client || busy || workspace.trim() === ''} aria-busy={busy || undefined}>
        New session
      </button>
    </form>
  );
}
