/** update_state's `key` is not a usable dot path into SessionState. */
export class StateKeyError extends Error {
  constructor(
    readonly key: string,
    problem: string,
  ) {
    super(`update_state key "${key}": ${problem}. A key is a dot path into SessionState, e.g. "status", "plan.tasks.1.status" or "variables.last_verification_failed".`);
    this.name = 'StateKeyError';
  }
}

/** Segments that would reach Object.prototype instead of the state's own data. */
const FORBIDDEN = new Set(['__proto__', 'prototype', 'constructor']);

type Container = Record<string, unknown> | unknown[];

const isContainer = (value: unknown): value is Container => typeof value === 'object' && value !== null;

/**
 * A copy of `state` with the field at `key` set to `value` (removed when `value` is undefined). Numeric segments
 * index arrays (an index one past the end appends); missing objects along the way are created. The result is not
 * validated here: the caller checks it against the schema, which names whatever the change broke.
 */
export function setAtKey(state: unknown, key: string, value: unknown): unknown {
  if (typeof key !== 'string' || key.length === 0) throw new StateKeyError(String(key), 'it is empty');
  const segments = key.split('.');
  if (segments.some((s) => s.length === 0)) throw new StateKeyError(key, 'it has an empty segment');
  const forbidden = segments.find((s) => FORBIDDEN.has(s));
  if (forbidden) throw new StateKeyError(key, `"${forbidden}" cannot be a field name`);
  if (value !== undefined) assertJson(value, key);

  const root = structuredClone(state) as unknown;
  if (!isContainer(root)) throw new StateKeyError(key, 'the state is not an object');
  let at: Container = root;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    const last = i === segments.length - 1;
    const where = segments.slice(0, i + 1).join('.');
    if (Array.isArray(at)) {
      if (!/^(0|[1-9]\d*)$/.test(segment)) throw new StateKeyError(key, `"${segments.slice(0, i).join('.')}" is a list: "${segment}" must be an index`);
      const index = Number(segment);
      if (index > at.length || (index === at.length && !last)) throw new StateKeyError(key, `"${where}" does not exist (the list has ${at.length} items)`);
      if (last) {
        if (value === undefined) at.splice(index, 1);
        else at[index] = value;
        return root;
      }
      if (!isContainer(at[index])) throw new StateKeyError(key, `"${where}" is not an object or list`);
      at = at[index] as Container;
    } else {
      if (last) {
        if (value === undefined) delete at[segment];
        else at[segment] = value;
        return root;
      }
      if (at[segment] === undefined) at[segment] = {};
      if (!isContainer(at[segment])) throw new StateKeyError(key, `"${where}" is ${JSON.stringify(at[segment])}, not an object or list`);
      at = at[segment] as Container;
    }
  }
  return root;
}

/** JSON values only: the state is a JSON file, and a function or a Date would not survive the round trip. */
function assertJson(value: unknown, key: string, depth = 0): void {
  if (depth > 64) throw new StateKeyError(key, 'the value is nested more than 64 levels deep');
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new StateKeyError(key, `the value contains ${value}, which JSON cannot hold`);
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) assertJson(item, key, depth + 1);
    return;
  }
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    for (const item of Object.values(value)) assertJson(item, key, depth + 1);
    return;
  }
  throw new StateKeyError(key, `the value must be plain JSON, not ${value === undefined ? 'undefined' : typeof value === 'object' ? (value as object).constructor?.name ?? 'an object' : typeof value}`);
}
