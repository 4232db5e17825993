/**
 * A fast "could anything here match?" test for the scrubber, equivalent to running one regular expression over
 * the text but several times cheaper on long text (terminal output: the event log scrubs every character a
 * terminal prints; figures in docs/performance.md#event-log). One regular expression alternating many literals is
 * slow in V8, since at every position it tries each alternative; this walks the text once, looks each run of three
 * characters up in a bit table of the three-character starts the expression can have, and runs the expression
 * (anchored there) only where one of those starts occurs.
 *
 * Exact, not a heuristic: every match of the expression begins with one of its starts, and every position holding
 * one is checked by the expression itself. Characters are folded to 7 bits on both sides (the table's and the
 * text's), so characters outside ASCII can only cause an extra check, never hide a start.
 */
export class TrigramPrefilter {
  /** One bit per 7-bit trigram: 2^21 bits. */
  readonly #starts = new Uint32Array(1 << 16);
  /** The expression, sticky: `lastIndex` = where to try it. */
  readonly #confirm: RegExp;
  /** The most characters a match of the expression can span (its lookbehind looks at one more, before it). */
  readonly #maxMatchLength: number;

  private constructor(starts: Iterable<string>, confirmSource: string, maxMatchLength: number) {
    for (const start of starts) {
      if (start.length !== 3) throw new Error(`a trigram prefilter start must be 3 characters, not ${JSON.stringify(start)}`);
      const key = trigramKey(start.charCodeAt(0), start.charCodeAt(1), start.charCodeAt(2));
      this.#starts[key >>> 5] |= 1 << (key & 31);
    }
    this.#confirm = new RegExp(confirmSource, 'y');
    this.#maxMatchLength = maxMatchLength;
  }

  /**
   * For an expression in the plain subset anchors are written in (literals, escaped punctuation, `[...]` sets and
   * ranges, `(?:...)` groups, `|`; no quantifiers), whose every alternative is at least three characters long.
   * A `(?<![set])` lookbehind may stand anywhere: it adds nothing to the starts and is checked by the expression.
 * Anything else is refused with an error naming what it met, so an anchor the prefilter cannot represent fails at
   * start-up (and in the tests), never by missing a token.
   */
  static forExpression(source: string): TrigramPrefilter {
    const alternatives = parseAnchors(source);
    return new TrigramPrefilter(startsOf(alternatives, source), source, longestMatch(alternatives));
  }

  /** For literal values of at least three characters each (registered secrets: eight or more). */
  static forLiterals(values: readonly string[]): TrigramPrefilter {
    for (const value of values) {
      if (value.length < 3) throw new Error('a trigram prefilter needs literals of at least 3 characters');
    }
    return new TrigramPrefilter(
      values.map((value) => value.slice(0, 3)),
      values.map((value) => value.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&')).join('|'),
      Math.max(...values.map((value) => value.length)),
    );
  }

  /** True when the expression matches somewhere in `text` (what `expression.test(text)` would say). */
  test(text: string): boolean {
    const end = text.length;
    if (end < 3) return false;
    const starts = this.#starts;
    const confirm = this.#confirm;
    // The last three characters, 7 bits each, rolled along the text.
    let key = ((text.charCodeAt(0) & 127) << 7) | (text.charCodeAt(1) & 127);
    for (let i = 2; i < end; i++) {
      key = ((key << 7) | (text.charCodeAt(i) & 127)) & 0x1f_ffff;
      if ((starts[key >>> 5] & (1 << (key & 31))) !== 0) {
        confirm.lastIndex = i - 2;
        if (confirm.test(text)) return true;
      }
    }
    return false;
  }

  /**
   * What `test` would say of the text these bytes spell, for bytes that are all ASCII (check with isAscii first):
   * then each byte is one character, so the same walk runs over the bytes without decoding them into a string, and
   * only the few characters around a start are decoded to confirm it (the event log's writer scrubs every byte a
   * terminal prints; decoding it all would cost about as much as the walk itself, and as much again in garbage
   * collection: docs/performance.md#event-log).
   */
  testAscii(bytes: Uint8Array): boolean {
    const end = bytes.length;
    if (end < 3) return false;
    const starts = this.#starts;
    let key = ((bytes[0] & 127) << 7) | (bytes[1] & 127);
    for (let i = 2; i < end; i++) {
      key = ((key << 7) | (bytes[i] & 127)) & 0x1f_ffff;
      if ((starts[key >>> 5] & (1 << (key & 31))) !== 0 && this.#confirmAt(bytes, i - 2)) return true;
    }
    return false;
  }

  /** Runs the expression at `at` on the characters a match there could involve: one before it, and the match. */
  #confirmAt(bytes: Uint8Array, at: number): boolean {
    const from = Math.max(0, at - 1);
    const window = Buffer.from(bytes.buffer, bytes.byteOffset + from, Math.min(bytes.length, at + this.#maxMatchLength) - from).toString('latin1');
    this.#confirm.lastIndex = at - from;
    return this.#confirm.test(window);
  }
}

function trigramKey(a: number, b: number, c: number): number {
  return ((a & 127) << 14) | ((b & 127) << 7) | (c & 127);
}

/** A parsed expression: alternatives, each a sequence of atoms; an atom is a set of characters or a group. */
type Alternatives = Atom[][];
type Atom = { chars: string[] } | { group: Alternatives };

/** Every three-character string a match of `source` can begin with. */
export function leadingTrigrams(source: string): Set<string> {
  return startsOf(parseAnchors(source), source);
}

function startsOf(alternatives: Alternatives, source: string): Set<string> {
  const out = new Set<string>();
  for (const sequence of alternatives) expand(sequence, '', out, source);
  return out;
}

function parseAnchors(source: string): Alternatives {
  const parser = new AnchorParser(source);
  const alternatives = parser.alternatives();
  if (!parser.done) throw parser.error('an unmatched ")"');
  return alternatives;
}

/** The most characters any alternative can match: anchors have no quantifiers, so this is finite. */
function longestMatch(alternatives: Alternatives): number {
  let longest = 0;
  for (const sequence of alternatives) {
    let length = 0;
    for (const atom of sequence) length += 'chars' in atom ? Math.max(...atom.chars.map((char) => char.length)) : longestMatch(atom.group);
    longest = Math.max(longest, length);
  }
  return longest;
}

function expand(atoms: Atom[], prefix: string, out: Set<string>, source: string): void {
  if (prefix.length === 3) {
    out.add(prefix);
    return;
  }
  if (atoms.length === 0) throw new Error(`cannot prefilter /${source}/: an alternative can match fewer than 3 characters ("${prefix}")`);
  const [atom, ...rest] = atoms;
  if ('chars' in atom) {
    for (const char of atom.chars) expand(rest, prefix + char, out, source);
  } else {
    for (const sequence of atom.group) expand([...sequence, ...rest], prefix, out, source);
  }
}

class AnchorParser {
  private at = 0;

  constructor(private readonly source: string) {}

  get done(): boolean {
    return this.at >= this.source.length;
  }

  error(what: string): Error {
    return new Error(`cannot prefilter /${this.source}/: ${what} at offset ${this.at} (anchors use literals, [sets], (?:groups), (?<![sets]) and |)`);
  }

  alternatives(): Alternatives {
    const result: Alternatives = [[]];
    while (!this.done) {
      const char = this.source[this.at];
      if (char === ')') break;
      if (char === '|') {
        this.at++;
        result.push([]);
        continue;
      }
      result[result.length - 1].push(this.atom());
    }
    return result;
  }

  private atom(): Atom {
    const char = this.source[this.at];
    let atom: Atom;
    if (this.source.startsWith('(?<![', this.at)) {
      // "Not after one of these": zero-width, so it adds no character to the starts. It only narrows where the
      // expression (which does keep it) confirms a start: "sk-" in "task-12" is passed over without further work.
      this.at += 4;
      this.set();
      if (this.source[this.at] !== ')') throw this.error('a lookbehind other than (?<![set])');
      this.at++;
      atom = { chars: [''] };
    } else if (char === '(') {
      if (!this.source.startsWith('(?:', this.at)) throw this.error('a group other than (?:...)');
      this.at += 3;
      const group = this.alternatives();
      if (this.source[this.at] !== ')') throw this.error('an unclosed group');
      this.at++;
      atom = { group };
    } else if (char === '[') {
      atom = { chars: this.set() };
    } else if (char === '\\') {
      atom = { chars: [this.escaped()] };
    } else if ('.^$*+?{}]'.includes(char)) {
      throw this.error(`"${char}"`);
    } else {
      this.at++;
      atom = { chars: [char] };
    }
    if (!this.done && '*+?{'.includes(this.source[this.at])) throw this.error('a quantifier');
    return atom;
  }

  private escaped(): string {
    const char = this.source[this.at + 1];
    if (char === undefined || /[A-Za-z0-9]/.test(char)) throw this.error(`the escape "\\${char ?? ''}"`);
    this.at += 2;
    return char;
  }

  private set(): string[] {
    this.at++; // [
    if (this.source[this.at] === '^') throw this.error('a negated set');
    const chars: string[] = [];
    while (!this.done && this.source[this.at] !== ']') {
      const from = this.source[this.at] === '\\' ? this.escaped() : this.source[this.at++];
      if (this.source[this.at] === '-' && this.source[this.at + 1] !== ']' && this.at + 1 < this.source.length) {
        this.at++;
        const to = this.source[this.at] === '\\' ? this.escaped() : this.source[this.at++];
        for (let code = from.charCodeAt(0); code <= to.charCodeAt(0); code++) chars.push(String.fromCharCode(code));
      } else {
        chars.push(from);
      }
    }
    if (this.done) throw this.error('an unclosed set');
    this.at++; // ]
    return chars;
  }
}
