import { inspect } from 'node:util';
import type { Disposable } from '../../../src-preload/rpc';
import type { Secret } from './secret';

/**
 * Registered values shorter than this are not scrubbed. A short value (a PIN, "admin", "true", a port number)
 * occurs by chance all over ordinary text: ids, paths, hex hashes, words. Scrubbing every such occurrence would
 * mangle unrelated entries, and each marker would tell a reader where the value's characters stand in text they
 * can read elsewhere (a hash they can recompute, a path they know), which gives the value away instead of hiding
 * it. Credentials worth protecting (API keys, OAuth tokens, passwords of services) are longer.
 */
export const MIN_SCRUBBED_SECRET_CHARS = 8;

/** What register() did; dispose it when the secret is no longer in use (revoked, deleted, rotated). */
export interface SecretRegistration extends Disposable {
  /** False when the value is shorter than MIN_SCRUBBED_SECRET_CHARS and is therefore not searched for. */
  readonly scrubbed: boolean;
}

/**
 * The forms in which a value travels through text: as is; without the whitespace around it (a token read from a
 * file keeps its trailing newline, what leaks is the token); JSON-escaped (inside a serialized payload or request
 * body); escaped as util.inspect quotes a string (inside an object or error printed to the log); percent-encoded
 * (inside a URL).
 */
function formsOf(value: string): string[] {
  const forms = new Set<string>();
  for (const text of [value, value.trim()]) {
    forms.add(text).add(JSON.stringify(text).slice(1, -1)).add(inspect(text).slice(1, -1)).add(encodeURIComponent(text));
  }
  return [...forms].filter((form) => form.length >= MIN_SCRUBBED_SECRET_CHARS);
}

/**
 * The secret values the host knows (registered by the vault while a secret is in use), so the scrubber can take
 * exact occurrences out of ledger payloads and log lines. Values live only in this process's memory, in a private
 * field: nothing here is ever written anywhere, and inspecting or serializing the registry shows only a count.
 *
 * Registrations are counted: the same value registered twice stays known until both registrations are disposed.
 */
export class SecretRegistry {
  readonly #counts = new Map<string, number>();
  #generation = 0;
  #sorted: string[] | undefined;

  register(secret: Secret<string>): SecretRegistration {
    const value: unknown = secret.expose();
    if (typeof value !== 'string') {
      throw new TypeError(`SecretRegistry.register takes a Secret<string>; this one holds a ${typeof value}`);
    }
    const forms = formsOf(value);
    for (const form of forms) this.#counts.set(form, (this.#counts.get(form) ?? 0) + 1);
    if (forms.length > 0) this.#changed();
    let disposed = false;
    return {
      scrubbed: forms.length > 0,
      dispose: () => {
        if (disposed) return;
        disposed = true;
        for (const form of forms) {
          const count = (this.#counts.get(form) ?? 0) - 1;
          if (count > 0) this.#counts.set(form, count);
          else this.#counts.delete(form);
        }
        if (forms.length > 0) this.#changed();
      },
    };
  }

  /** How many distinct forms are searched for. */
  get size(): number {
    return this.#counts.size;
  }

  /** Changes whenever the set of values changes, so the scrubber knows when to rebuild its matcher. */
  get generation(): number {
    return this.#generation;
  }

  /** The values to search for, longest first (so a value that contains another one is taken out whole). */
  values(): readonly string[] {
    this.#sorted ??= [...this.#counts.keys()].sort((a, b) => b.length - a.length);
    return this.#sorted;
  }

  #changed(): void {
    this.#generation++;
    this.#sorted = undefined;
  }

  toJSON(): string {
    return `SecretRegistry(${this.size})`;
  }

  [inspect.custom](): string {
    return `SecretRegistry { ${this.size} values }`;
  }
}
