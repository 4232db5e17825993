/**
 * How a workspace's session page is laid out: the dock's height, the side column's width, the split, which panels
 * are folded and which dock tab is in front. Kept per workspace folder in localStorage, so a reload (or another
 * session on the same folder) finds the page as the user left it.
 */
export interface WorkspaceLayout {
  /** The dock's (terminals and runs) share of the page's height, in percent. */
  dockPercent: number;
  /** The side column's (goal, changes, grants) share of the upper area's width, in percent. */
  sidePercent: number;
  /** The left pane's share of the dock's width while it is split, in percent. */
  splitPercent: number;
  /** The side column is folded away, leaving the conversation the whole width. */
  sideCollapsed: boolean;
  /** Side panels folded to their header, by panel id ('grants', 'goal', 'changes'). */
  collapsed: Record<string, boolean>;
  /** The dock tab in front (a terminal id, or RUNS_TAB); null: the newest terminal, else the runs. */
  activeTab: string | null;
  /** The tab shown in the right half of a split dock; null: not split. */
  splitTab: string | null;
}

export const RUNS_TAB = 'runs';

export const LIMITS = {
  dockPercent: { min: 15, max: 85 },
  sidePercent: { min: 18, max: 60 },
  splitPercent: { min: 20, max: 80 },
} as const;

export type SizeKey = keyof typeof LIMITS;

export const DEFAULT_LAYOUT: WorkspaceLayout = {
  dockPercent: 45,
  sidePercent: 30,
  splitPercent: 50,
  sideCollapsed: false,
  collapsed: {},
  activeTab: null,
  splitTab: null,
};

const KEY_PREFIX = 'omni.layout.';

export function layoutKey(workspace: string): string {
  return KEY_PREFIX + workspace;
}

export function clampSize(key: SizeKey, value: number): number {
  const { min, max } = LIMITS[key];
  return Math.round(Math.min(max, Math.max(min, value)));
}

function sizeOr(key: SizeKey, value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? clampSize(key, value) : DEFAULT_LAYOUT[key];
}

function idOr(value: unknown): string | null {
  // Ids are short tokens; anything else in storage (hand-edited, another version's shape) falls back to the default.
  return typeof value === 'string' && value.length > 0 && value.length <= 200 ? value : null;
}

/**
 * Reads a stored layout. Storage is not trusted: another version of the app, a hand edit or a full disk may have
 * left anything there, so every field is checked and a bad one falls back to its default instead of breaking the page.
 */
export function parseLayout(text: string | null): WorkspaceLayout {
  if (!text) return DEFAULT_LAYOUT;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return DEFAULT_LAYOUT;
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return DEFAULT_LAYOUT;
  const r = raw as Record<string, unknown>;
  const collapsed: Record<string, boolean> = {};
  if (typeof r.collapsed === 'object' && r.collapsed !== null && !Array.isArray(r.collapsed)) {
    for (const [id, value] of Object.entries(r.collapsed as Record<string, unknown>)) if (typeof value === 'boolean') collapsed[id] = value;
  }
  return {
    dockPercent: sizeOr('dockPercent', r.dockPercent),
    sidePercent: sizeOr('sidePercent', r.sidePercent),
    splitPercent: sizeOr('splitPercent', r.splitPercent),
    sideCollapsed: r.sideCollapsed === true,
    collapsed,
    activeTab: idOr(r.activeTab),
    splitTab: idOr(r.splitTab),
  };
}

export function loadLayout(workspace: string): WorkspaceLayout {
  try {
    return parseLayout(localStorage.getItem(layoutKey(workspace)));
  } catch {
    return DEFAULT_LAYOUT; // Storage can be switched off; the page still works, it just forgets.
  }
}

export function saveLayout(workspace: string, layout: WorkspaceLayout): void {
  try {
    localStorage.setItem(layoutKey(workspace), JSON.stringify(layout));
  } catch {
    // A full or disabled storage only costs remembering the layout.
  }
}

/**
 * Which tabs the dock shows where, given the tabs that exist now: a remembered tab that is gone (its terminal
 * closed) gives way to the newest terminal, else the runs list; a split needs a second tab distinct from the first.
 */
export function resolveTabs(layout: Pick<WorkspaceLayout, 'activeTab' | 'splitTab'>, tabIds: readonly string[]): { active: string; split: string | null } {
  const terminals = tabIds.filter((id) => id !== RUNS_TAB);
  const fallback = terminals.length > 0 ? terminals[terminals.length - 1]! : RUNS_TAB;
  const active = layout.activeTab !== null && tabIds.includes(layout.activeTab) ? layout.activeTab : fallback;
  const split = layout.splitTab !== null && layout.splitTab !== active && tabIds.includes(layout.splitTab) ? layout.splitTab : null;
  return { active, split };
}

/** The tab a new split shows beside the active one: the next terminal after it, else any other tab. */
export function pickSplitTab(active: string, tabIds: readonly string[]): string | null {
  const others = tabIds.filter((id) => id !== active);
  if (others.length === 0) return null;
  const terminals = others.filter((id) => id !== RUNS_TAB);
  const after = tabIds.slice(tabIds.indexOf(active) + 1).find((id) => id !== RUNS_TAB);
  return after ?? terminals[0] ?? others[0]!;
}
