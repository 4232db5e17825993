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

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function encodeString(value: string, path: string): string {
  if (loneSurrogate.test(value)) throw new CanonicalJsonError(path, 'a string with a lone surrogate');
  return JSON.stringify(value);
}

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function encode(value: unknown, path: string): string {
  switch (typeof value) {
    case 'string':
      return encodeString(value, path);
    case 'number':
      if (!Number.isFinite(value)) throw new CanonicalJsonError(path, String(value));
      return Object.is(value, -0) ? '0' : String(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) {
        return `[${value
          .map((item, i) => {
            if (item === undefined) throw new CanonicalJsonError(`${path}[${i}]`, 'undefined');
            return encode(item, `${path}[${i}]`);
          })
          .join(',')}]`;
      }
      const proto = Object.getPrototypeOf(value) as unknown;
      if (proto !== Object.prototype && proto !== null) {
        throw new CanonicalJsonError(path, `an instance of ${(value as object).constructor?.name ?? 'a class'}`);
      }
      const members: string[] = [];
      for (const key of Object.keys(value).sort(byCodeUnits)) {
        const member = (value as Record<string, unknown>)[key];
        if (member === undefined) continue;
        members.push(`${encodeString(key, path)}:${encode(member, `${path}.${key}`)}`);
      }
      return `{${members.join(',')}}`;
    }
    default:
      throw new CanonicalJsonError(path, `a ${typeof value}`);
  }
}

export function canonicalJson(value: unknown): string {
  return encode(value, '$');
}
