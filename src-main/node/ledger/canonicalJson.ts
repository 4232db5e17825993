/**
 * Canonical JSON, the byte form a ledger payload is committed to (the JSON Canonicalization Scheme, RFC 8785):
 * - objects: members sorted by key, compared as UTF-16 code units; members whose value is `undefined` are left out
 *   (as JSON.stringify does); no whitespace anywhere;
 * - arrays: in order; `undefined` inside an array is refused (JSON.stringify would silently turn it into null);
 * - strings: as ECMAScript's JSON.stringify writes them: `"` `\\` and control characters escaped (\b \f \n \r \t,
 *   others as \u00XX), everything else — all of Unicode — written as itself; a lone surrogate is refused because it
 *   has no UTF-8 form;
 * - numbers: ECMAScript's shortest round-trip form (1, 1.5, 1e+21, 1e-7), -0 written as 0; NaN and ±Infinity are
 *   refused;
 * - true, false, null as themselves; anything else (bigint, function, symbol, Date, Map, class instances) refused.
 * Two payloads that mean the same JSON therefore always give the same bytes, whatever their key order.
 */
export class CanonicalJsonError extends Error {
  constructor(
    readonly path: string,
    what: string,
  ) {
    super(`cannot put ${what} at ${path} into canonical JSON: payloads must be plain JSON (objects, arrays, strings, finite numbers, booleans, null)`);
    this.name = 'CanonicalJsonError';
  }
}

/**
 * Thrown inside the encoder instead of CanonicalJsonError: the path to the refused value is collected on the way
 * out, one key per level, so encoding a valid payload (every payload but a bug's) builds no path at all. Building
 * one for every member cost a third of the encoding.
 */
class Refusal {
  /** Innermost first. */
  readonly keys: (string | number)[];
  constructor(
    readonly what: string,
    ...innermostKey: (string | number)[]
  ) {
    this.keys = innermostKey;
  }
}

function pathText(innermostFirst: readonly (string | number)[]): string {
  let text = '$';
  for (let i = innermostFirst.length - 1; i >= 0; i--) {
    const key = innermostFirst[i];
    text += typeof key === 'number' ? `[${key}]` : `.${key}`;
  }
  return text;
}

/** Characters JSON.stringify escapes, plus every surrogate (so a lone one is seen by the slow path). */
// eslint-disable-next-line no-control-regex -- the control characters are exactly what JSON escapes
const NEEDS_CARE = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * Strings up to this long are searched a character at a time rather than by NEEDS_CARE: most payload strings are
 * short (ids, names, flags), and for them a call into the regular expression engine cost more than the loop.
 */
const SHORT_STRING_CHARS = 32;

function needsCare(value: string): boolean {
  const length = value.length;
  if (length > SHORT_STRING_CHARS) return NEEDS_CARE.test(value);
  for (let i = 0; i < length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x22 || code === 0x5c || (code >= 0xd800 && code <= 0xdfff)) return true;
  }
  return false;
}

function encodeString(value: string): string {
  // Nearly every string (keys, paths, ids, commands) holds none of them and is written as it is between quotes:
  // one search instead of a well-formedness check plus a JSON.stringify call, which costs more
  // (docs/performance.md#ledger).
  if (!needsCare(value)) return `"${value}"`;
  // isWellFormed (ES2024, in Node 20; not yet in this project's TypeScript lib): false exactly when the string
  // holds a lone surrogate. Much cheaper than a regular expression over every string.
  if (!(value as string & { isWellFormed(): boolean }).isWellFormed()) throw new Refusal('a string with a lone surrogate');
  return JSON.stringify(value);
}

/**
 * Member names repeat endlessly across payloads ("cwd", "sessionId"): the encoded form of a short one with its colon,
 * `"cwd":`, is remembered (within bounds) instead of being checked and built again for every member. A quarter of
 * the encoding's time went there.
 */
const encodedKeys = new Map<string, string>();
const ENCODED_KEYS_MAX = 10_000;
const ENCODED_KEY_MAX_CHARS = 64;

function encodeKey(key: string): string {
  let encoded = encodedKeys.get(key);
  if (encoded === undefined) {
    encoded = `${encodeString(key)}:`;
    if (key.length <= ENCODED_KEY_MAX_CHARS) {
      if (encodedKeys.size >= ENCODED_KEYS_MAX) encodedKeys.clear();
      encodedKeys.set(key, encoded);
    }
  }
  return encoded;
}

/**
 * The object's own enumerable keys in UTF-16 code unit order (what `<` compares). Insertion sort: payload objects
 * have a handful of members, and Array.prototype.sort with a comparator cost more than the rest of the encoding.
 */
function sortedKeys(value: object): string[] {
  const keys = Object.keys(value);
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i];
    let j = i - 1;
    for (; j >= 0 && keys[j] > key; j--) keys[j + 1] = keys[j];
    keys[j + 1] = key;
  }
  return keys;
}

/** Encodes a member or array item, adding its key to the path of a refusal from inside it. */
function encodeAt(value: unknown, key: string | number): string {
  try {
    return encode(value);
  } catch (error) {
    if (error instanceof Refusal) error.keys.push(key);
    throw error;
  }
}

function encode(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return encodeString(value);
    case 'number':
      if (!Number.isFinite(value)) throw new Refusal(String(value));
      return Object.is(value, -0) ? '0' : String(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) {
        let text = '[';
        for (let i = 0; i < value.length; i++) {
          const item: unknown = value[i];
          if (item === undefined) throw new Refusal('undefined', i);
          text += (i > 0 ? ',' : '') + encodeAt(item, i);
        }
        return `${text}]`;
      }
      const proto = Object.getPrototypeOf(value) as unknown;
      if (proto !== Object.prototype && proto !== null) {
        throw new Refusal(`an instance of ${(value as object).constructor?.name ?? 'a class'}`);
      }
      let text = '{';
      let first = true;
      const keys = sortedKeys(value);
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i];
        const member = (value as Record<string, unknown>)[key];
        if (member === undefined) continue;
        text += (first ? '' : ',') + encodeKey(key) + encodeAt(member, key);
        first = false;
      }
      return `${text}}`;
    }
    default:
      throw new Refusal(`a ${typeof value}`);
  }
}

export function canonicalJson(value: unknown): string {
  try {
    return encode(value);
  } catch (error) {
    if (error instanceof Refusal) throw new CanonicalJsonError(pathText(error.keys), error.what);
    throw error;
  }
}
