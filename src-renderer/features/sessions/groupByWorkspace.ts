import type { Session } from '../../../src-preload/contract';

export interface WorkspaceGroup {
  workspace: string;
  /** The folder's last path segment, the label the user recognises. */
  label: string;
  sessions: Session[];
}

export function folderName(path: string): string {
  const trimmed = path.replace(/[\\/]+$/, '');
  const last = trimmed.split(/[\\/]/).pop();
  return last || path;
}

/**
 * Sessions grouped by workspace folder, folders sorted by name, sessions newest first within a folder. A worktree
 * session is listed under the repository it was created on (its own folder is a worktree under the app home, named
 * by its id, which the user would not recognise).
 */
export function groupByWorkspace(sessions: readonly Session[]): WorkspaceGroup[] {
  const groups = new Map<string, Session[]>();
  for (const session of sessions) {
    const folder = session.worktree?.repo ?? session.workspace;
    const list = groups.get(folder) ?? [];
    list.push(session);
    groups.set(folder, list);
  }
  return [...groups.entries()]
    .map(([workspace, list]) => ({
      workspace,
      label: folderName(workspace),
      sessions: list.sort((a, b) => b.createdAt - a.createdAt),
    }))
    .sort((a, b) => a.label.localeCompare(b.label) || a.workspace.localeCompare(b.workspace));
}
