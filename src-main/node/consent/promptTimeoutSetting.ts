/**
 * How long a consent prompt waits for an answer while it is on screen: `omni serve --consent-timeout 30m`, or
 * OMNI_CONSENT_TIMEOUT in the environment (the desktop app's host reads that). Written as a whole number and a unit:
 * 90s, 30m, 2h.
 */

/** The default: long enough to come back from a meeting, short enough that a forgotten run does not hang for days. */
export const DEFAULT_PROMPT_TIMEOUT_MS = 30 * 60_000;

const MIN_MS = 1_000;
const MAX_MS = 24 * 60 * 60_000;
const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 60 * 60_000 };

export type PromptTimeoutParse = { ok: true; ms: number } | { ok: false; reason: string };

/** "30m" → 1 800 000. `source` names where the text came from, for the message. */
export function parsePromptTimeout(text: string, source: string): PromptTimeoutParse {
  const match = /^\s*(\d{1,9})\s*([smh])\s*$/i.exec(text);
  const ms = match ? Number(match[1]) * UNIT_MS[match[2].toLowerCase()] : NaN;
  if (!match || ms < MIN_MS || ms > MAX_MS) {
    return { ok: false, reason: `${source} must be a duration from 1s to 24h written like 90s, 30m or 2h, not "${text.slice(0, 40)}"` };
  }
  return { ok: true, ms };
}

/** The prompt timeout of OMNI_CONSENT_TIMEOUT, or the default when it is not set; a bad value is a RangeError saying how to write it. */
export function promptTimeoutFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const text = env.OMNI_CONSENT_TIMEOUT;
  if (text === undefined || text === '') return DEFAULT_PROMPT_TIMEOUT_MS;
  const parsed = parsePromptTimeout(text, 'OMNI_CONSENT_TIMEOUT');
  if (!parsed.ok) throw new RangeError(parsed.reason);
  return parsed.ms;
}
