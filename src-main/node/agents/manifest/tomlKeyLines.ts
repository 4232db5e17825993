/**
 * smol-toml returns plain values without source positions, so validation errors would have no line numbers. This
 * scans the text for where each key is defined: `[table]` / `[[array]]` headers and `key = ` lines (bare, quoted and
 * dotted keys), skipping the insides of multi-line strings and arrays. It only has to be right for text that already
 * parsed; when in doubt a key simply has no line.
 */
export function tomlKeyLines(text: string): Map<string, number> {
  const lines = new Map<string, number>();
  const record = (path: string[], line: number): void => {
    // Every prefix is "defined" here too, unless an earlier line defined it (`resources.cpu` also places `resources`).
    for (let i = 1; i <= path.length; i++) {
      const key = path.slice(0, i).join('.');
      if (!lines.has(key)) lines.set(key, line);
    }
  };
  let table: string[] = [];
  let openMultiline: '"""' | "'''" | null = null;
  let bracketDepth = 0;
  const source = text.split(/\r?\n/);
  for (let index = 0; index < source.length; index++) {
    const lineNo = index + 1;
    let rest = source[index];
    if (openMultiline) {
      const close = rest.indexOf(openMultiline);
      if (close < 0) continue;
      openMultiline = null;
      rest = rest.slice(close + 3);
      bracketDepth = Math.max(0, bracketDepth + bracketBalance(rest));
      continue;
    }
    if (bracketDepth > 0) {
      bracketDepth = Math.max(0, bracketDepth + bracketBalance(rest));
      openMultiline = unclosedMultiline(rest);
      continue;
    }
    const trimmed = rest.trimStart();
    const header = /^\[\[?\s*([^\]]+?)\s*\]\]?/.exec(trimmed);
    if (header) {
      table = splitDottedKey(header[1]) ?? [];
      record(table, lineNo);
      continue;
    }
    const assignment = /^((?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*'))*)\s*=(.*)$/.exec(trimmed);
    if (!assignment) continue;
    const key = splitDottedKey(assignment[1]);
    if (key) record([...table, ...key], lineNo);
    const value = assignment[2];
    openMultiline = unclosedMultiline(value);
    if (!openMultiline) bracketDepth = Math.max(0, bracketBalance(value));
  }
  return lines;
}

/** `a."b.c".d` → ['a', 'b.c', 'd']; null when it is not a key. */
function splitDottedKey(source: string): string[] | null {
  const parts: string[] = [];
  const pattern = /\s*(?:([A-Za-z0-9_-]+)|"((?:[^"\\]|\\.)*)"|'([^']*)')\s*(\.|$)/y;
  let match: RegExpExecArray | null;
  while (pattern.lastIndex < source.length && (match = pattern.exec(source))) {
    parts.push(match[1] ?? (match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : match[3]));
    if (match[4] === '') break;
  }
  return parts.length > 0 ? parts : null;
}

/** Net `[`/`{` minus `]`/`}` outside strings and comments: > 0 means a value continues on the next line. */
function bracketBalance(text: string): number {
  let depth = 0;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === '\\' && quote === '"') i++;
      else if (ch === quote) quote = null;
    } else if (ch === '#') break;
    else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '[' || ch === '{') depth++;
    else if (ch === ']' || ch === '}') depth--;
  }
  return depth;
}

/** The delimiter of a multi-line string opened and not closed on this line, if any. */
function unclosedMultiline(text: string): '"""' | "'''" | null {
  for (const delimiter of ['"""', "'''"] as const) {
    const open = text.indexOf(delimiter);
    if (open >= 0 && text.indexOf(delimiter, open + 3) < 0) return delimiter;
  }
  return null;
}
