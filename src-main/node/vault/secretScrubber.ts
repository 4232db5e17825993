import { inspect } from 'node:util';
import { SecretRegistry } from './secretRegistry';
import { isSecretFieldName, TOKEN_PATTERNS, type TokenPattern } from './tokenPatterns';
import { TrigramPrefilter } from './trigramPrefilter';

/** What stands where a secret was: says which kind, never anything of the value (not its length either). */
export const redactionMarker = (label: string): string => `[REDACTED:${label}]`;

const REGISTERED = 'registered';
const SECRET_FIELD = 'secret-field';

/** Deeper than this a payload is refused: no audit entry nests this far, and a cycle would otherwise recurse forever. */
const MAX_DEPTH = 200;

export class PayloadTooDeepError extends Error {
  constructor() {
    super(`cannot scrub the payload: it nests more than ${MAX_DEPTH} levels deep (or refers to itself); ledger payloads must be plain, finite JSON`);
    this.name = 'PayloadTooDeepError';
  }
}

interface Pass {
  /**
   * The fast path: a cheap test that finds something in every text the pass would change; when it finds nothing
   * the text is returned as it came. Keeps no state between calls.
   */
  detect: { test(text: string): boolean };
  /** The same test on ASCII bytes, where the detector can run on bytes (a trigram prefilter can, a RegExp not). */
  detectAscii?: (bytes: Uint8Array) => boolean;
  replaceAll: RegExp;
  replacer: (match: string, ...rest: unknown[]) => string;
}

/**
 * Registered values get a pass of their own, before the patterns: in a single expression a pattern match that
 * starts earlier could end inside a registered value ("Bearer abcd1234" of a registered "abcd1234!rest") and
 * leave the rest of it in the text.
 */
type Matcher = readonly Pass[];

const escapeRegExp = (text: string): string => text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');

function knownValuesPass(known: readonly string[]): Pass {
  // Longest first: where one value contains another, the whole of the longer one goes.
  const source = known.map(escapeRegExp).join('|');
  const marker = redactionMarker(REGISTERED);
  if (known.every((value) => value.length >= 3)) {
    const detect = TrigramPrefilter.forLiterals(known);
    return { detect, detectAscii: (bytes) => detect.testAscii(bytes), replaceAll: new RegExp(source, 'g'), replacer: () => marker };
  }
  return { detect: new RegExp(source), replaceAll: new RegExp(source, 'g'), replacer: () => marker };
}

/** Built once per list of patterns: the prefilter's table is 256 KB, and every scrubber uses the same list. */
const anchorPrefilters = new WeakMap<readonly TokenPattern[], TrigramPrefilter>();

/**
 * Every token pattern in one regular expression, each alternative in its own named group so the replacement knows
 * what it found. Strings without any pattern's anchor (nearly all of them) cost one pass of the anchors' trigram
 * prefilter and no allocation.
 */
function tokenPatternsPass(patterns: readonly TokenPattern[]): Pass {
  const source = patterns.map((pattern, i) => `(?<k${i}>${pattern.source.replace('(?<secret>', `(?<s${i}>`)})`).join('|');
  const anchors = patterns.map((pattern) => pattern.anchor).join('|');
  const replacer = (match: string, ...rest: unknown[]): string => {
    const groups = rest[rest.length - 1] as Record<string, string | undefined>;
    for (let i = 0; i < patterns.length; i++) {
      if (groups[`k${i}`] === undefined) continue;
      const pattern = patterns[i];
      if (pattern.accept && !pattern.accept(match)) return match;
      const secret = groups[`s${i}`];
      // The secret group ends the match by contract: keep what comes before it ("Bearer ", "https://user:").
      return secret === undefined ? redactionMarker(pattern.label) : match.slice(0, match.length - secret.length) + redactionMarker(pattern.label);
    }
    return match;
  };
  let detect = anchorPrefilters.get(patterns);
  if (!detect) {
    detect = TrigramPrefilter.forExpression(anchors);
    anchorPrefilters.set(patterns, detect);
  }
  const prefilter = detect;
  return { detect, detectAscii: (bytes) => prefilter.testAscii(bytes), replaceAll: new RegExp(source, 'g'), replacer };
}

/**
 * Takes secrets out of text and JSON payloads before they are stored or printed: every exact occurrence of a
 * registered value (also inside longer strings) and everything shaped like a known token format becomes a marker
 * such as `[REDACTED:github-token]` or `[REDACTED:registered]`. Members named like credentials (`password`,
 * `apiKey`, `authorization`, ...) lose their value whatever it looks like.
 *
 * The ledger runs every payload through here at ingest, so the hash chain commits to the scrubbed payload and the
 * secret is never on disk; the host log runs every line through here before printing it.
 */
export class SecretScrubber {
  readonly #registry: SecretRegistry;
  #matcher: Matcher;
  #generation: number;
  readonly #tokenPass: Pass;

  constructor(registry: SecretRegistry = new SecretRegistry(), patterns: readonly TokenPattern[] = TOKEN_PATTERNS) {
    this.#registry = registry;
    this.#generation = registry.generation;
    this.#tokenPass = tokenPatternsPass(patterns);
    this.#matcher = this.#build();
  }

  #build(): Matcher {
    const known = this.#registry.values();
    return known.length > 0 ? [knownValuesPass(known), this.#tokenPass] : [this.#tokenPass];
  }

  #current(): Matcher {
    // Rebuilt lazily: registrations come in bursts (vault unlock), scrubs come thousands per second.
    if (this.#generation !== this.#registry.generation) {
      this.#generation = this.#registry.generation;
      this.#matcher = this.#build();
    }
    return this.#matcher;
  }

  /** The text with every secret replaced by its marker; the same string when there was none. */
  scrubText(text: string): string {
    return this.#scrubString(text, this.#current());
  }

  /**
   * True when `bytes`, which must all be ASCII (isAscii), spell a text scrubText would return unchanged, found
   * without decoding them (see TrigramPrefilter.testAscii); false when they may hold a secret, or when this
   * scrubber cannot tell from bytes (a registered value shorter than three characters): decode and scrub the text.
   */
  isCleanAscii(bytes: Uint8Array): boolean {
    for (const pass of this.#current()) {
      if (!pass.detectAscii || pass.detectAscii(bytes)) return false;
    }
    return true;
  }

  /**
   * A copy of the payload with secrets taken out of every string, member name and nested array or object; the
   * payload itself when there was nothing to take out (no copy, so the common case costs no allocation). Values
   * that are not plain JSON are passed through untouched for the ledger's canonical JSON to refuse.
   */
  scrubPayload<T extends Record<string, unknown>>(payload: T): T {
    return this.#scrubValue(payload, this.#current(), 0) as T;
  }

  #scrubString(text: string, matcher: Matcher): string {
    let result = text;
    for (const pass of matcher) {
      if (pass.detect.test(result)) result = result.replace(pass.replaceAll, pass.replacer);
    }
    return result;
  }

  #scrubValue(value: unknown, matcher: Matcher, depth: number): unknown {
    if (typeof value === 'string') return this.#scrubString(value, matcher);
    if (typeof value !== 'object' || value === null) return value;
    if (depth >= MAX_DEPTH) throw new PayloadTooDeepError();
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        const scrubbed = this.#scrubValue(item, matcher, depth + 1);
        if (scrubbed !== item) {
          copy ??= value.slice();
          copy[i] = scrubbed;
        }
      }
      return copy ?? value;
    }
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return value;
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    // Copy on the first change only: a clean object (nearly every payload) is returned as it came.
    let copy: Record<string, unknown> | undefined;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      const member = record[key];
      const scrubbedKey = this.#scrubString(key, matcher);
      const scrubbed = isSecretField(key, member) ? redactionMarker(SECRET_FIELD) : this.#scrubValue(member, matcher, depth + 1);
      if (copy === undefined) {
        if (scrubbedKey === key && scrubbed === member) continue;
        copy = proto === null ? (Object.create(null) as Record<string, unknown>) : {};
        for (let j = 0; j < i; j++) setMember(copy, keys[j], record[keys[j]]);
      }
      let name = scrubbedKey;
      // Two names that scrub to the same marker must not overwrite each other (or a member already named so).
      for (let n = 2; name !== key && (Object.hasOwn(copy, name) || Object.hasOwn(record, name)); n++) name = `${scrubbedKey}#${n}`;
      setMember(copy, name, scrubbed);
    }
    return copy ?? value;
  }

  toJSON(): string {
    return 'SecretScrubber';
  }

  /** The compiled expression holds every registered value: it must never be printed. */
  [inspect.custom](): string {
    return 'SecretScrubber';
  }
}

const MARKER = /^\[REDACTED:[a-z-]+\]$/;

/** A credential-named member with a value to hide (not empty, not already a marker). */
function isSecretField(name: string, value: unknown): boolean {
  if (typeof value === 'number') return isSecretFieldName(name);
  // The name first: a cached lookup, where the marker test is a regular expression run on every string member.
  return typeof value === 'string' && value !== '' && isSecretFieldName(name) && !MARKER.test(value);
}

/** Plain assignment would make a member named "__proto__" the copy's prototype instead of a member. */
function setMember(target: Record<string, unknown>, name: string, value: unknown): void {
  if (name === '__proto__') Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
  else target[name] = value;
}
