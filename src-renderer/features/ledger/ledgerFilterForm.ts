import type { LedgerFilter } from '../../../src-preload/contract';

/** The session menu's value for "entries outside any session" (no session id can contain a NUL). */
export const NO_SESSION = '\u0000none';

/** What the filter controls hold, as typed. */
export interface LedgerForm {
  /** '' for every session, NO_SESSION, or a session id. */
  sessionId: string;
  /** '' for every actor. */
  actor: string;
  /** Comma-separated type terms: `terminal` (contains), `grant.*` (pattern). */
  types: string;
  /** `datetime-local` values ('' for open-ended), in the browser's time zone. */
  from: string;
  to: string;
  search: string;
}

export const EMPTY_FORM: LedgerForm = { sessionId: '', actor: '', types: '', from: '', to: '', search: '' };

export function isEmptyForm(form: LedgerForm): boolean {
  return Object.values(form).every((value) => value.trim() === '');
}

/** A term with a `*` is a pattern as the host reads it; a plain term matches types containing it. */
export function typePatterns(text: string): string[] {
  return text
    .split(',')
    .map((term) => term.trim())
    .filter((term) => term !== '')
    .map((term) => (term.includes('*') ? term : `*${term}*`));
}

function parseLocalTime(value: string, what: string): number | undefined {
  if (value.trim() === '') return undefined;
  const ms = new Date(value).getTime();
  if (Number.isNaN(ms)) throw new Error(`${what} "${value}" is not a date and time`);
  return ms;
}

/** The filter the host is asked for, or an error saying which control to fix. */
export function formToFilter(form: LedgerForm): { filter: LedgerFilter } | { error: string } {
  const filter: LedgerFilter = {};
  if (form.sessionId === NO_SESSION) filter.sessionId = null;
  else if (form.sessionId !== '') filter.sessionId = form.sessionId;
  if (form.actor !== '') filter.actors = [form.actor];
  const types = typePatterns(form.types);
  if (types.length > 0) filter.types = types;
  try {
    filter.fromTs = parseLocalTime(form.from, 'From');
    // "To" is inclusive: a minute (the input's usual precision) means up to its end, a second up to that second's.
    const to = parseLocalTime(form.to, 'To');
    filter.toTs = to === undefined ? undefined : to + (/T\d\d:\d\d$/.test(form.to.trim()) ? 60_000 : 1000);
  } catch (error) {
    return { error: (error as Error).message };
  }
  if (filter.fromTs === undefined) delete filter.fromTs;
  if (filter.toTs === undefined) delete filter.toTs;
  if (filter.fromTs !== undefined && filter.toTs !== undefined && filter.fromTs >= filter.toTs) {
    return { error: '"From" must be before "To"' };
  }
  const search = form.search.trim();
  if (search !== '') filter.text = search;
  return { filter };
}

/** Type families for the type box's suggestions: `terminal.*` for terminal.open and terminal.close, then each type. */
export function typeSuggestions(types: readonly string[]): string[] {
  const families = new Set<string>();
  for (const type of types) {
    const dot = type.indexOf('.');
    if (dot > 0) families.add(`${type.slice(0, dot)}.*`);
  }
  return [...[...families].sort(), ...types];
}
