import { inspect } from 'node:util';

const REDACTED = '[REDACTED]';

/**
 * A value that must not leak: every way Node turns an object into text (String(), template literals,
 * JSON.stringify, util.inspect / console.log / util.format('%o')) shows `[REDACTED]`, and only an explicit
 * `.expose()` returns the value, so each read is greppable at its call site.
 *
 * The value sits in a private `#field`: it is not a property at all, so Object.keys, spreads, Object.assign,
 * structuredClone and inspect's showHidden never see it. Instances are frozen so nobody can hang the value (or
 * anything else) on them later.
 */
export class Secret<T> {
  readonly #value: T;

  constructor(value: T) {
    this.#value = value;
    Object.freeze(this);
  }

  /** The only way to read the value. Keep the result short-lived and out of logs, errors and events. */
  expose(): T {
    return this.#value;
  }

  toString(): string {
    return REDACTED;
  }

  toJSON(): string {
    return REDACTED;
  }

  /** Covers `+secret`, `secret + ''` and template literals, which would otherwise go through valueOf first. */
  [Symbol.toPrimitive](): string {
    return REDACTED;
  }

  /** util.inspect calls this, and through it console.log, util.format('%o' / '%O') and the REPL. */
  [inspect.custom](): string {
    return REDACTED;
  }
}
