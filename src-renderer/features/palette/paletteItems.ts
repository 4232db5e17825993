import type { Session } from '../../../src-preload/contract';
import { fuzzyMatch } from './fuzzyScore';
import { availabilityOf, type Availability, type PaletteAction, type PaletteContext } from './paletteAction';

export interface CommandItem {
  kind: 'command';
  key: string;
  action: PaletteAction;
  availability: Availability;
  score: number;
  /** Matched letters of the title. */
  positions: number[];
}

export interface SessionItem {
  kind: 'session';
  key: string;
  session: Session;
  /** The session already shown. */
  current: boolean;
  /** The workspace folder as shown (the user's home as ~). */
  folder: string;
  score: number;
  positions: number[];
  folderPositions: number[];
}

export type PaletteItem = CommandItem | SessionItem;

/** A folder path matches too, but a name is what people type: a folder match counts for half. */
const FOLDER_WEIGHT = 0.5;
/** Keywords are unseen synonyms: a match on them counts for half of one on the title. */
const KEYWORD_WEIGHT = 0.5;

/** ">" first means commands only, as in VS Code; the rest is what to look for. */
export function parseQuery(raw: string): { commandsOnly: boolean; text: string } {
  const trimmed = raw.trimStart();
  if (trimmed.startsWith('>')) return { commandsOnly: true, text: trimmed.slice(1).trim() };
  return { commandsOnly: false, text: raw.trim() };
}

/** The folder as the palette shows it: under the user's home, as ~/… (shorter, and the part people remember). */
export function displayFolder(folder: string, userHome: string | null | undefined): string {
  if (!userHome || userHome === '/') return folder;
  const home = userHome.endsWith('/') ? userHome.slice(0, -1) : userHome;
  if (folder === home) return '~';
  return folder.startsWith(`${home}/`) ? `~${folder.slice(home.length)}` : folder;
}

function commandItem(action: PaletteAction, text: string, context: PaletteContext): CommandItem | null {
  const onTitle = fuzzyMatch(text, action.title);
  const onKeywords = action.keywords ? fuzzyMatch(text, action.keywords) : null;
  const keywordScore = onKeywords ? onKeywords.score * KEYWORD_WEIGHT : -Infinity;
  if (!onTitle && !onKeywords) return null;
  const titleScore = onTitle ? onTitle.score : -Infinity;
  return {
    kind: 'command',
    key: `command:${action.id}`,
    action,
    availability: availabilityOf(action, context),
    score: Math.max(titleScore, keywordScore),
    positions: onTitle && titleScore >= keywordScore ? onTitle.positions : [],
  };
}

function sessionItem(session: Session, text: string, selectedId: string | null, userHome: string | null | undefined): SessionItem | null {
  const folder = displayFolder(session.workspace, userHome);
  const onName = fuzzyMatch(text, session.name);
  const onFolder = fuzzyMatch(text, folder);
  if (!onName && !onFolder) return null;
  const nameScore = onName ? onName.score : -Infinity;
  const folderScore = onFolder ? onFolder.score * FOLDER_WEIGHT : -Infinity;
  return {
    kind: 'session',
    key: `session:${session.id}`,
    session,
    current: session.id === selectedId,
    folder,
    score: Math.max(nameScore, folderScore),
    positions: onName && nameScore >= folderScore ? onName.positions : [],
    folderPositions: onFolder && folderScore > nameScore ? onFolder.positions : [],
  };
}

export interface PaletteInput {
  query: string;
  actions: readonly PaletteAction[];
  sessions: readonly Session[];
  selectedId: string | null;
  /** Closed sessions are listed only when the sidebar shows them too. */
  includeClosed: boolean;
  userHome?: string | null;
  context: PaletteContext;
}

/**
 * What the palette lists for a query. Nothing typed: the other sessions first (the one shown last), then the commands
 * that can run, then those that cannot; with ">", commands only. Something typed: everything that matches, best
 * first; on equal scores sessions before commands and runnable commands before the others.
 */
export function paletteItems(input: PaletteInput): PaletteItem[] {
  const { commandsOnly, text } = parseQuery(input.query);
  const sessions = commandsOnly
    ? []
    : input.sessions
        .filter((s) => input.includeClosed || s.status === 'open')
        .map((s) => sessionItem(s, text, input.selectedId, input.userHome))
        .filter((item): item is SessionItem => item !== null);
  const commands = input.actions.map((a) => commandItem(a, text, input.context)).filter((item): item is CommandItem => item !== null);
  const order = new Map<PaletteItem, number>();
  const all: PaletteItem[] = [...sessions, ...commands];
  all.forEach((item, index) => order.set(item, index));
  const rank = (item: PaletteItem): number => (item.kind === 'session' ? (item.current ? 1 : 0) : item.availability.enabled ? 2 : 3);
  return all.sort((a, b) => {
    if (text !== '' && a.score !== b.score) return b.score - a.score;
    // With nothing typed the current session goes after the others (Ctrl+K, Enter switches to another one); with a
    // query it only breaks ties.
    const byRank = text === '' ? rank(a) - rank(b) : kindRank(a) - kindRank(b);
    return byRank !== 0 ? byRank : order.get(a)! - order.get(b)!;
  });
}

/** Ties under a query: sessions, then commands that can run, then the rest. */
function kindRank(item: PaletteItem): number {
  return item.kind === 'session' ? 0 : item.availability.enabled ? 1 : 2;
}
