import { useEffect, useState, type FormEvent } from 'react';
import { RpcError } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';
import { useSessions } from '../../ui/sessionsStore';

interface FieldErrors {
  workspace?: string;
  name?: string;
  base?: string;
}

/** What session.gitInfo said of the folder typed: the form offers a worktree only in a repository. */
interface GitInfo {
  inRepo: boolean;
  branches: string[];
  current: string | null;
}

/** Splits a host error over the fields: a `name` issue goes under Name, a base branch one under Base, anything else under Workspace. */
function toFieldErrors(error: unknown): FieldErrors {
  if (error instanceof RpcError && error.issues?.some((issue) => issue.path === 'name')) return { name: error.message };
  if (error instanceof RpcError && error.issues?.some((issue) => issue.path.startsWith('worktree'))) return { base: error.message };
  return { workspace: errorMessage(error) };
}

/** The folder field's id: the command palette's "New session…" brings the keyboard here. */
export const NEW_SESSION_FOLDER_ID = 'new-session-workspace';

/** How long the form waits after the last keystroke in the folder field before it asks the host about the folder. */
const GIT_INFO_DELAY_MS = 250;

/** Creates a session on a workspace folder; the host checks the folder and its answer is shown under the field. */
export function NewSessionForm() {
  const client = useConnection((s) => s.client);
  const userHome = useConnection((s) => s.hostInfo?.userHome);
  const [workspace, setWorkspace] = useState('');
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const [git, setGit] = useState<GitInfo | null>(null);
  // The folder the host last answered about: until it has, Create waits, so "on by default" is never skipped by a
  // quick click.
  const [checked, setChecked] = useState<string | null>(null);
  // On by default in a repository; the user's "off" sticks while they edit the folder.
  const [useWorktree, setUseWorktree] = useState(true);
  const [base, setBase] = useState('');

  // Asks the host whether the folder is in a git repository (and its branches) once the user stops typing.
  useEffect(() => {
    const folder = workspace.trim();
    setGit(null);
    if (!client || !folder.startsWith('/')) return;
    let live = true;
    const timer = setTimeout(() => {
      client.call('session.gitInfo', { workspace: folder }).then(
        (info) => {
          if (!live) return;
          setGit(info);
          setBase(info.current ?? info.branches[0] ?? '');
          setChecked(folder);
        },
        () => {
          if (!live) return;
          // A folder the host cannot look at: session.create will say why, under the field.
          setGit(null);
          setChecked(folder);
        },
      );
    }, GIT_INFO_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [client, workspace]);

  const checking = client !== null && workspace.trim().startsWith('/') && checked !== workspace.trim();
  const worktreeOffered = git !== null && git.inRepo && git.branches.length > 0;
  const worktree = worktreeOffered && useWorktree && base !== '' ? { base } : undefined;

  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    if (!client || busy) return;
    setBusy(true);
    setErrors({});
    try {
      const trimmedName = name.trim();
      const session = await client.call('session.create', { workspace: workspace.trim(), ...(trimmedName ? { name: trimmedName } : {}), ...(worktree ? { worktree } : {}) });
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
          id={NEW_SESSION_FOLDER_ID}
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
      {worktreeOffered && (
        <fieldset className="new-session-worktree" data-testid="new-session-worktree-options">
          <label>
            <input type="checkbox" role="switch" data-testid="new-session-worktree" checked={useWorktree} onChange={(e) => setUseWorktree(e.target.checked)} />
            Work on a new branch in its own worktree
          </label>
          {useWorktree && (
            <label>
              From branch
              <select
                name="base"
                data-testid="new-session-base"
                value={base}
                aria-invalid={errors.base ? true : undefined}
                aria-describedby={errors.base ? 'new-session-base-error' : 'new-session-worktree-hint'}
                onChange={(e) => setBase(e.target.value)}
              >
                {git.branches.map((branch) => (
                  <option key={branch} value={branch}>
                    {branch}
                    {branch === git.current ? ' (current)' : ''}
                  </option>
                ))}
              </select>
            </label>
          )}
          <small id="new-session-worktree-hint" className="muted">
            {useWorktree ? 'A branch omni/<session name> in a worktree of its own: your checkout and other sessions do not see its changes.' : 'The session works in the folder itself.'}
          </small>
          {errors.base && (
            <small id="new-session-base-error" role="alert" data-testid="new-session-error">
              {errors.base}
            </small>
          )}
        </fieldset>
      )}
      <button type="submit" disabled={!client || busy || checking || workspace.trim() === ''} aria-busy={busy || checking || undefined}>
        {busy && useWorktree ? 'Creating the worktree…' : 'New session'}
      </button>
    </form>
  );
}
