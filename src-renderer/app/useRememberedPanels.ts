import { useEffect, useRef } from 'react';
import { useGoal } from '../features/goal/goalStore';
import type { WorkspaceLayout } from '../features/workspace/layoutPrefs';
import type { LayoutChange } from '../features/workspace/layoutStore';
import { useReview } from '../ui/changes/reviewStore';

/**
 * The Goal and Changes panels fold themselves (their own buttons, Ctrl+Shift+G and Ctrl+Shift+D); this remembers
 * their state in the workspace's layout, restores it when the page opens, and unfolds the side column when one of
 * them is opened while it is folded away (a shortcut must show what it opens).
 */
export function useRememberedPanels(sessionId: string, layout: WorkspaceLayout, update: (change: LayoutChange) => void): void {
  const goalOpen = useGoal((s) => s.panelOpen[sessionId]);
  const changesOpen = useReview((s) => !!s.changesPanelOpen[sessionId]);
  const restored = useRef(false);

  useEffect(() => {
    if (restored.current) return;
    restored.current = true;
    const { goal, changes } = layout.collapsed;
    if (goal !== undefined && useGoal.getState().panelOpen[sessionId] === undefined) useGoal.getState().setPanelOpen(sessionId, !goal);
    if (changes === false && !useReview.getState().changesPanelOpen[sessionId]) useReview.getState().showChangesPanel(sessionId);
  }, [sessionId, layout.collapsed]);

  const previous = useRef({ goalOpen, changesOpen });
  useEffect(() => {
    const before = previous.current;
    previous.current = { goalOpen, changesOpen };
    if (before.goalOpen === goalOpen && before.changesOpen === changesOpen) return;
    const opened = (goalOpen === true && before.goalOpen !== true) || (changesOpen && !before.changesOpen);
    update((current) => ({
      collapsed: { ...current.collapsed, ...(goalOpen === undefined ? {} : { goal: !goalOpen }), changes: !changesOpen },
      ...(opened ? { sideCollapsed: false } : {}),
    }));
  }, [goalOpen, changesOpen, update]);
}
