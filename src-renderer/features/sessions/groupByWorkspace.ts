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

/** Sessions grouped by workspace folder, folders sorted by name, sessions newest first within a folder. */
export function groupByWorkspace(sessions: readonly Session[]): WorkspaceGroup[] {
  const groups = new Map<string, Session[]>();
  for (const session of sessions) {
    const list = groups.get(session.workspace) ?? [];
    list.push(session);
    groups.set(session.workspace, list);
  }
  return [...groups.entries()]
    .map(([workspace, list]) => ({
      workspace,
      label: folderName(workspace),
      sessions: list.sort((a, b) => b.createdAt - a.createdAt),
    }))
    .sort((a, b) => a.label.localeCompare(b.label) || a.workspace.localeCompare(b.workspace));
}
