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

/** Where a value sits, built into text only when an error needs it: building it for every member cost more than encoding. */
interface Path {
  parent: Path | null;
  key: string | number;
}

function pathText(path: Path | null): string {
  let text = '';
  for (let at = path; at; at = at.parent) text = (typeof at.key === 'number' ? `[${at.key}]` : `.${at.key}`) + text;
  return `$${text}`;
}

function encodeString(value: string, path: Path | null): string {
  // isWellFormed (ES2024, in Node 20; not yet in this project's TypeScript lib): false exactly when the string
  // holds a lone surrogate. Much cheaper than a regular expression over every string.
  if (!(value as string & { isWellFormed(): boolean }).isWellFormed()) throw new CanonicalJsonError(pathText(path), 'a string with a lone surrogate');
  return JSON.stringify(value);
}

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function encode(value: unknown, path: Path | null): string {
  switch (typeof value) {
    case 'string':
      return encodeString(value, path);
    case 'number':
      if (!Number.isFinite(value)) throw new CanonicalJsonError(pathText(path), String(value));
      return Object.is(value, -0) ? '0' : String(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) {
        let text = '[';
        for (let i = 0; i < value.length; i++) {
          const item: unknown = value[i];
          if (item === undefined) throw new CanonicalJsonError(pathText({ parent: path, key: i }), 'undefined');
          text += (i > 0 ? ',' : '') + encode(item, { parent: path, key: i });
        }
        return `${text}]`;
      }
      const proto = Object.getPrototypeOf(value) as unknown;
      if (proto !== Object.prototype && proto !== null) {
        throw new CanonicalJsonError(pathText(path), `an instance of ${(value as object).constructor?.name ?? 'a class'}`);
      }
      let text = '{';
      let first = true;
      for (const key of Object.keys(value).sort(byCodeUnits)) {
        const member = (value as Record<string, unknown>)[key];
        if (member === undefined) continue;
        text += `${first ? '' : ','}${encodeString(key, path)}:${encode(member, { parent: path, key })}`;
        first = false;
      }
      return `${text}}`;
    }
    default:
      throw new CanonicalJsonError(pathText(path), `a ${typeof value}`);
  }
}

export function canonicalJson(value: unknown): string {
  return encode(value, null);
}
