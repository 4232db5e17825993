import type { Session } from '../../../src-preload/contract';
import type { OmniClient } from '../../bridge/connectionStore';

/** What an action needs before it can run: a connected host, a selected session, or a selected session that is open. */
export type Requirement = 'host' | 'session' | 'openSession';

/** What the palette knows when it lists actions and runs one: the live client (null while the host is away) and the selected session. */
export interface PaletteContext {
  client: OmniClient | null;
  session: Session | null;
}

/**
 * One thing the palette can do. Actions are declared by the app (app/paletteActions.ts), which composes the features
 * whose code they call; the palette only finds, shows and runs them.
 */
export interface PaletteAction {
  /** Stable, for keys and tests: "terminal.new". */
  id: string;
  title: string;
  /** Other words it should be found by (matched, not shown). */
  keywords?: string;
  /** The keyboard shortcut that does the same, as shown to the user ("Ctrl+Shift+T"). */
  shortcut?: string;
  needs: readonly Requirement[];
  /** Runs it; a rejected promise is shown to the user. Called only when availabilityOf says enabled. */
  run(context: PaletteContext): void | Promise<void>;
}

export type Availability = { enabled: true } | { enabled: false; reason: string };

/** Whether the action can run now, and if not, why, in words that say what to do about it. The host comes first: without it nothing runs. */
export function availabilityOf(action: Pick<PaletteAction, 'needs'>, context: PaletteContext): Availability {
  if (action.needs.includes('host') && !context.client) return { enabled: false, reason: 'The host is not connected' };
  const needsSession = action.needs.includes('session') || action.needs.includes('openSession');
  if (needsSession && !context.session) return { enabled: false, reason: 'Select a session first' };
  if (action.needs.includes('openSession') && context.session?.status !== 'open') return { enabled: false, reason: 'The session is closed: reopen it first' };
  return { enabled: true };
}
