import { useMemo } from 'react';
import { create } from 'zustand';
import { loadLayout, saveLayout, type WorkspaceLayout } from './layoutPrefs';

export type LayoutChange = Partial<WorkspaceLayout> | ((layout: WorkspaceLayout) => Partial<WorkspaceLayout>);

interface LayoutState {
  /** Layouts changed so far, by workspace folder; sessions on the same folder share one. */
  byWorkspace: Record<string, WorkspaceLayout>;
  update(workspace: string, change: LayoutChange): void;
}

export const useLayouts = create<LayoutState>((set, get) => ({
  byWorkspace: {},
  update(workspace, change) {
    const current = get().byWorkspace[workspace] ?? loadLayout(workspace);
    const next = { ...current, ...(typeof change === 'function' ? change(current) : change) };
    saveLayout(workspace, next);
    set((state) => ({ byWorkspace: { ...state.byWorkspace, [workspace]: next } }));
  },
}));

/** The workspace's layout (as last remembered) and a setter that remembers each change. */
export function useWorkspaceLayout(workspace: string): [WorkspaceLayout, (change: LayoutChange) => void] {
  const stored = useLayouts((s) => s.byWorkspace[workspace]);
  const remembered = useMemo(() => loadLayout(workspace), [workspace]);
  const update = useLayouts((s) => s.update);
  return [stored ?? remembered, (change) => update(workspace, change)];
}
