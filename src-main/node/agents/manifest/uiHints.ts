/**
 * UI hints (§1 `ui.hints`, §8) the renderer knows how to honour. An unknown hint is only a warning: hints are
 * suggestions, and an agent written for a newer shell must still load here.
 */
export const KNOWN_UI_HINTS = ['streaming', 'diff', 'preview', 'code', 'log', 'markdown', 'image', 'table', 'terminal', 'internal'] as const;

/** `internal`: run by other agents (the goal run's executor and verifier), not offered to the user in the launcher. */
export const INTERNAL_HINT = 'internal';

export type KnownUiHint = (typeof KNOWN_UI_HINTS)[number];

export function isKnownUiHint(hint: string): hint is KnownUiHint {
  return (KNOWN_UI_HINTS as readonly string[]).includes(hint);
}
