// Canaries glued to whatever text a program puts around them: a word character, punctuation, characters outside
// ASCII, or nothing, before and after (`a_ghp_…`, `1sk-ant-…`, `id_xoxb-…`, `AKIA…_prod`). Generated fresh each run;
// a failure names the kind and the prefix and suffix, never the token.
import { randomInt } from 'node:crypto';
import { registeredSecret, TOKEN_SHAPES, type Canary } from './canaries';

/** What may stand right before or after a token: word characters first (the case that was missed), then the rest. */
const GLUE = ['a', 'Z', '7', '_', '-', 'x_', 'id_', '1', 'GLUED_', 'é', 'ß', '中', '😀', '\u200b', '\u00a0', '.', '/', '=', ':', '"', ' ', ''];

function glue(): string {
  const parts = randomInt(1, 4);
  let text = '';
  for (let i = 0; i < parts; i++) text += GLUE[randomInt(GLUE.length)];
  return text;
}

export interface GluedCanary extends Canary {
  prefix: string;
  suffix: string;
  /** prefix + value + suffix: the token glued into the text around it. */
  glued: string;
}

/** The shapes recognisable by themselves, and the key block: the ones that can be glued to anything. */
export const GLUABLE_KINDS = [...Object.keys(TOKEN_SHAPES).filter((kind) => TOKEN_SHAPES[kind]().standalone), 'private-key', 'registered'];

/** `rounds` glued canaries of every kind, numbered from `firstIndex`. */
export function gluedCanaries(rounds: number, firstIndex = 0): GluedCanary[] {
  const out: GluedCanary[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const kind of GLUABLE_KINDS) {
      const registered = kind === 'registered';
      // A registered value glued to text must be one without spaces or quotes (the shell commands plant them raw).
      const value = registered ? `${randomText24()}` : kind === 'private-key' ? privateKeyBlock() : TOKEN_SHAPES[kind]().value;
      const prefix = glue();
      const suffix = glue();
      const index = firstIndex + out.length;
      out.push({ index, kind, value, text: value, registered, standalone: true, prefix, suffix, glued: `${prefix}${value}${suffix}` });
    }
  }
  return out;
}

function randomText24(): string {
  let value = registeredSecret();
  while (!/^[A-Za-z0-9_-]+$/.test(value)) value = registeredSecret();
  return value;
}

/** A key block as a program prints it, BEGIN and END lines included: the whole block is the secret. */
function privateKeyBlock(): string {
  const { text } = TOKEN_SHAPES['private-key']();
  return text.trimEnd();
}

/** How a failure names a canary: its kind and what it was glued to, never its value. */
export function describe(canary: GluedCanary): string {
  return `#${canary.index} ${canary.kind} glued as ${JSON.stringify(canary.prefix)} + token + ${JSON.stringify(canary.suffix)}`;
}
