// Random credentials of every shape the scrubber knows, made fresh each run (no token-shaped literal sits in the
// source), and the checks that none of them shows up where it must not. Failures name a canary by index and kind,
// never by value, so a failing run does not print the secrets it was guarding.
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const BASE64URL = `${ALNUM}-_`;
const BASE64 = `${ALNUM}+/`;

function pick(alphabet: string): string {
  return alphabet[randomInt(alphabet.length)];
}

/** `length` random characters of `alphabet`, with at least one letter and one digit when the alphabet has both. */
export function randomText(length: number, alphabet = ALNUM): string {
  const chars = Array.from({ length }, () => pick(alphabet));
  const letters = alphabet.replace(/[^A-Za-z]/g, '');
  const digits = alphabet.replace(/\D/g, '');
  if (letters && digits && length >= 4) {
    chars[randomInt(0, length >> 1)] = pick(letters);
    chars[randomInt(length >> 1, length)] = pick(digits);
  }
  return chars.join('');
}

const base64url = (text: string): string => Buffer.from(text).toString('base64url');

export interface TokenSample {
  /** The scrubber's label for this shape, i.e. the marker it should leave: `[REDACTED:<label>]`. */
  label: string;
  /** The credential itself: what must not appear anywhere. */
  value: string;
  /** The credential as it sits in real text (a header, a URL, an assignment, a key block). */
  text: string;
  /**
   * Whether the value is recognisable on its own (a provider token, a JWT). A password, a bearer credential or a
   * key body is just random text without the header, URL or BEGIN line around it: only its `text` can be caught.
   */
  standalone: boolean;
}

/** One generator per token shape; each call gives a new random credential. */
export const TOKEN_SHAPES: Record<string, () => TokenSample> = {
  'github-classic': () => {
    const value = `gh${pick('pousr')}_${randomText(36)}`;
    return { label: 'github-token', value, text: `git push https://github.com/acme/app (token ${value})`, standalone: true };
  },
  'github-fine-grained': () => {
    const value = `github_pat_${randomText(22)}_${randomText(59)}`;
    return { label: 'github-token', value, text: `GH auth: ${value}`, standalone: true };
  },
  'openai-legacy': () => {
    const value = `sk-${randomText(48)}`;
    return { label: 'openai-key', value, text: `openai.api_key = "${value}"`, standalone: true };
  },
  'openai-project': () => {
    const value = `sk-proj-${randomText(40, BASE64URL)}${randomText(20)}`;
    return { label: 'openai-key', value, text: `using key ${value} for the run`, standalone: true };
  },
  anthropic: () => {
    const value = `sk-ant-api03-${randomText(93, BASE64URL)}AA`;
    return { label: 'anthropic-key', value, text: `x-api-key header would be ${value}`, standalone: true };
  },
  'aws-access-key-id': () => {
    const value = `${pick('AS') === 'A' ? 'AKIA' : 'ASIA'}${randomText(16, UPPER + DIGITS)}`;
    return { label: 'aws-access-key-id', value, text: `aws configure set aws_access_key_id ${value}`, standalone: true };
  },
  slack: () => {
    const value = `xox${pick('abprs')}-${randomText(12, DIGITS)}-${randomText(13, DIGITS)}-${randomText(24)}`;
    return { label: 'slack-token', value, text: `slack bot token ${value}`, standalone: true };
  },
  google: () => {
    const value = `AIza${randomText(35, BASE64URL)}`;
    return { label: 'google-api-key', value, text: `maps key=${value}`, standalone: true };
  },
  stripe: () => {
    const value = `${pick('sr')}k_live_${randomText(24)}`;
    return { label: 'stripe-key', value, text: `stripe charge failed for ${value}`, standalone: true };
  },
  jwt: () => {
    // The key id first, so that even the header differs from run to run.
    const header = base64url(JSON.stringify({ kid: randomText(8), alg: 'HS256', typ: 'JWT' }));
    const payload = base64url(JSON.stringify({ sub: randomText(12), iat: randomInt(1e9, 2e9) }));
    const value = `${header}.${payload}.${randomText(43, BASE64URL)}`;
    return { label: 'jwt', value, text: `session cookie: ${value}`, standalone: true };
  },
  'private-key': () => {
    const lines = Array.from({ length: 4 }, () => randomText(64, BASE64));
    const value = lines.join('\n');
    const kind = pick('RE') === 'R' ? 'RSA ' : 'OPENSSH ';
    return { label: 'private-key', value, text: `-----BEGIN ${kind}PRIVATE KEY-----\n${value}\n-----END ${kind}PRIVATE KEY-----\n`, standalone: false };
  },
  'authorization-bearer': () => {
    const value = randomText(40, `${ALNUM}._-`);
    return { label: 'authorization', value, text: `curl -H "Authorization: Bearer ${value}" https://api.example.com`, standalone: false };
  },
  'authorization-basic': () => {
    const value = Buffer.from(`deploy:${randomText(20)}`).toString('base64');
    return { label: 'authorization', value, text: `Authorization: Basic ${value}`, standalone: false };
  },
  'url-password': () => {
    const value = randomText(20);
    return { label: 'url-password', value, text: `fetch https://deploy:${value}@git.example.com/acme/app.git failed`, standalone: false };
  },
  'url-query': () => {
    const value = randomText(32, BASE64URL);
    return { label: 'url-query-secret', value, text: `GET https://api.example.com/v1/items?page=2&access_token=${value}&sort=asc`, standalone: false };
  },
  'secret-assignment': () => {
    const value = randomText(32);
    return { label: 'secret-assignment', value, text: `export DEPLOY_API_KEY=${value}`, standalone: false };
  },
};

/** A registered secret has no recognisable shape: only its registration can catch it. */
export function registeredSecret(): string {
  // Some of them with characters that text escapes ("\"", "\\", spaces), as passwords have.
  return randomInt(3) === 0 ? `${randomText(12)} "pw\\${randomText(8)}` : randomText(24, BASE64URL);
}

export interface Canary {
  index: number;
  /** 'registered' or a TOKEN_SHAPES name. */
  kind: string;
  value: string;
  /** How it is planted: the value inside realistic text. */
  text: string;
  registered: boolean;
  /** The value alone is caught too (registered, or a token with a recognisable shape); else plant `text`. */
  standalone: boolean;
}

/** `count` canaries: about a third registered secrets, the rest cycling through every token shape. */
export function makeCanaries(count: number): Canary[] {
  const shapes = Object.keys(TOKEN_SHAPES);
  const registeredCount = Math.floor(count / 3);
  return Array.from({ length: count }, (_, index): Canary => {
    if (index < registeredCount) {
      const value = registeredSecret();
      return { index, kind: 'registered', value, text: `the password is ${value} (do not share)`, registered: true, standalone: true };
    }
    const kind = shapes[(index - registeredCount) % shapes.length];
    const sample = TOKEN_SHAPES[kind]();
    return { index, kind, value: sample.value, text: sample.text, registered: false, standalone: sample.standalone };
  });
}

/** Any run of this many characters of a canary counts as a leak: a secret scrubbed only in part is caught too. */
export const LEAK_CHARS = 16;

/**
 * The strings that would betray a canary: its value, JSON-escaped (how SQLite holds a payload), percent-encoded,
 * and every LEAK_CHARS-long slice of each.
 */
function tellTales(canary: Canary): Set<string> {
  const tells = new Set<string>();
  for (const form of new Set([canary.value, JSON.stringify(canary.value).slice(1, -1), encodeURIComponent(canary.value)])) {
    for (let i = 0; i + LEAK_CHARS <= form.length; i++) tells.add(form.slice(i, i + LEAK_CHARS));
  }
  return tells;
}

/**
 * Fails naming the first canary found in `bytes` (by index, kind and offset; never its value) and where.
 * Canaries are ASCII, so bytes are compared as latin1 characters, one per byte.
 */
export function assertNoCanaryIn(canaries: readonly Canary[], bytes: Buffer | string, where: string): void {
  const haystack = (typeof bytes === 'string' ? Buffer.from(bytes) : bytes).toString('latin1');
  const owner = new Map<string, Canary>();
  for (const canary of canaries) for (const tell of tellTales(canary)) owner.set(tell, canary);
  for (let at = 0; at + LEAK_CHARS <= haystack.length; at++) {
    const canary = owner.get(haystack.slice(at, at + LEAK_CHARS));
    if (canary) assert.fail(`canary #${canary.index} (${canary.kind}) found in ${where} at byte ${at}`);
  }
}

/** Text with every canary replaced by `<canary #i>`: for error messages that may quote one. */
export function hideCanaries(canaries: readonly Canary[], text: string): string {
  let hidden = text;
  for (const canary of canaries) {
    for (const tell of tellTales(canary)) hidden = hidden.split(tell).join(`<canary #${canary.index}>`);
  }
  return hidden;
}
