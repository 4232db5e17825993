import { useEffect, useState, type FormEvent } from 'react';
import { createPortal } from 'react-dom';
import { RpcError, type CreatedFolder } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';
import { useSessions } from '../../ui/sessionsStore';
import { FolderPickerDialog } from './FolderPickerDialog';
import { MissingFolderOffer } from './MissingFolderOffer';
import { RecentWorkspaces } from './RecentWorkspaces';

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
  // The folder typed, when the host said it does not exist: the form offers to create it.
  const [missing, setMissing] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedFolder | null>(null);
  const [picking, setPicking] = useState(false);
  // Bumped after a folder is created, so the host is asked about it again.
  const [recheck, setRecheck] = useState(0);

  // Asks the host whether the folder is in a git repository (and its branches) once the user stops typing.
  useEffect(() => {
    const folder = workspace.trim();
    setGit(null);
    setMissing(null);
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
        (error: unknown) => {
          if (!live) return;
          // A folder the host cannot look at: session.create will say why, under the field. One that does not
          // exist can be created from here.
          setGit(null);
          setMissing(error instanceof RpcError && error.code === 'NOT_FOUND' ? folder : null);
          setChecked(folder);
        },
      );
    }, GIT_INFO_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [client, workspace, recheck]);

  const checking = client !== null && workspace.trim().startsWith('/') && checked !== workspace.trim();

  /** A folder typed, or chosen in the picker or the recent list: into the field, ready to check and create. */
  function fillWorkspace(folder: string): void {
    setWorkspace(folder);
    setCreated(null);
    setErrors({});
  }

  function folderCreated(made: CreatedFolder): void {
    setCreated(made);
    setMissing(null);
    setErrors({});
    setWorkspace(made.path);
    setChecked(null);
    setRecheck((n) => n + 1);
  }
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
      <label htmlFor={NEW_SESSION_FOLDER_ID}>Workspace folder</label>
      <div className="new-session-folder">
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
          onChange={(e) => fillWorkspace(e.target.value)}
        />
        <button type="button" className="secondary" data-testid="new-session-browse" disabled={!client} onClick={() => setPicking(true)}>
          Browse…
        </button>
      </div>
      {errors.workspace && (
        <small id="new-session-workspace-error" role="alert" data-testid="new-session-error">
          {errors.workspace}
        </small>
      )}
      {missing !== null && missing === workspace.trim() && <MissingFolderOffer folder={missing} onCreated={folderCreated} />}
      {created && (
        <small role="status" className="folder-created" data-testid="folder-created">
          {created.created.length === 0 ? `${created.path} already exists.` : `Created ${created.created.join(', ')}.`}
        </small>
      )}
      {workspace.trim() === '' && <RecentWorkspaces onPick={fillWorkspace} />}
      {picking &&
        // Outside the form: Enter in the picker must never submit the new session.
        createPortal(
          <FolderPickerDialog
            start={workspace.trim().startsWith('/') ? workspace.trim() : undefined}
            onPick={(folder) => {
              setPicking(false);
              fillWorkspace(folder);
            }}
            onClose={() => setPicking(false)}
          />,
          document.body,
        )}
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
