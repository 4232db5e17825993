/**
 * A small syntax highlighter: one line at a time, with a state carried from line to line (inside a block comment,
 * a template string, an HTML tag, a fenced code block), so a virtualised view can colour any line it shows without
 * touching the whole text again. Tokens are plain text rendered by React: nothing here becomes markup.
 */
export type TokenType = 'plain' | 'keyword' | 'literal' | 'type' | 'string' | 'number' | 'comment' | 'punct' | 'key' | 'tag' | 'attr' | 'heading' | 'emphasis' | 'code' | 'link';

export interface Token {
  type: TokenType;
  text: string;
}

export type Language = 'ts' | 'json' | 'html' | 'markdown' | 'plain';

/** The language a card's `language` (or a file name's extension) names; unknown ones are shown plain. */
export function languageOf(name: string | null): Language {
  const lang = (name ?? '').toLowerCase().replace(/^.*\./, '');
  if (['ts', 'tsx', 'typescript', 'js', 'jsx', 'mjs', 'cjs', 'javascript', 'mts', 'cts'].includes(lang)) return 'ts';
  if (['json', 'jsonc', 'json5'].includes(lang)) return 'json';
  if (['html', 'htm', 'xml', 'svg', 'xhtml'].includes(lang)) return 'html';
  if (['md', 'markdown'].includes(lang)) return 'markdown';
  return 'plain';
}

/** Where a line starts: '' is the default state of every language. */
export type LineState = string;

const KEYWORDS = new Set(
  (
    'abstract as async await break case catch class const continue debugger declare default delete do else enum export extends ' +
    'finally for from function get if implements import in instanceof interface keyof let namespace new of package private ' +
    'protected public readonly return satisfies set static super switch this throw try type typeof var void while with yield'
  ).split(' '),
);
const LITERALS = new Set(['true', 'false', 'null', 'undefined', 'NaN', 'Infinity']);

class TokenList {
  readonly tokens: Token[] = [];
  push(type: TokenType, text: string): void {
    if (text.length === 0) return;
    const last = this.tokens[this.tokens.length - 1];
    if (last && last.type === type) last.text += text;
    else this.tokens.push({ type, text });
  }
}

/** Index just past the closing `quote` (skipping backslash escapes), or -1 when the line ends first. */
function closingQuote(line: string, from: number, quote: string): number {
  for (let i = from; i < line.length; i++) {
    if (line[i] === '\\') i++;
    else if (line[i] === quote) return i + 1;
  }
  return -1;
}

const NUMBER = /^(0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|(\d[\d_]*\.?[\d_]*|\.\d[\d_]*)([eE][+-]?\d+)?n?)/;
const WORD = /^[A-Za-z_$][\w$]*/;

function highlightScript(line: string, state: LineState, out: TokenList): LineState {
  let i = 0;
  if (state === 'block') {
    const end = line.indexOf('*/');
    if (end < 0) {
      out.push('comment', line);
      return 'block';
    }
    out.push('comment', line.slice(0, end + 2));
    i = end + 2;
  } else if (state === 'template') {
    const end = closingQuote(line, 0, '`');
    if (end < 0) {
      out.push('string', line);
      return 'template';
    }
    out.push('string', line.slice(0, end));
    i = end;
  }
  while (i < line.length) {
    const rest = line.slice(i);
    const c = line[i];
    if (rest.startsWith('//')) {
      out.push('comment', rest);
      return '';
    }
    if (rest.startsWith('/*')) {
      const end = line.indexOf('*/', i + 2);
      if (end < 0) {
        out.push('comment', rest);
        return 'block';
      }
      out.push('comment', line.slice(i, end + 2));
      i = end + 2;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') {
      const end = closingQuote(line, i + 1, c);
      if (end < 0) {
        out.push('string', rest);
        return c === '`' ? 'template' : '';
      }
      out.push('string', line.slice(i, end));
      i = end;
      continue;
    }
    const word = WORD.exec(rest);
    if (word) {
      const w = word[0];
      out.push(KEYWORDS.has(w) ? 'keyword' : LITERALS.has(w) ? 'literal' : /^[A-Z]/.test(w) ? 'type' : 'plain', w);
      i += w.length;
      continue;
    }
    const number = /[0-9.]/.test(c) ? NUMBER.exec(rest) : null;
    if (number && number[0] !== '.') {
      out.push('number', number[0]);
      i += number[0].length;
      continue;
    }
    out.push(/\s/.test(c) ? 'plain' : 'punct', c);
    i++;
  }
  return '';
}

function highlightJson(line: string, out: TokenList): LineState {
  let i = 0;
  while (i < line.length) {
    const c = line[i];
    if (c === '"') {
      const end = closingQuote(line, i + 1, '"');
      const stop = end < 0 ? line.length : end;
      const isKey = /^\s*:/.test(line.slice(stop));
      out.push(isKey ? 'key' : 'string', line.slice(i, stop));
      i = stop;
      continue;
    }
    const word = /^(true|false|null)\b/.exec(line.slice(i));
    if (word) {
      out.push('literal', word[0]);
      i += word[0].length;
      continue;
    }
    const number = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(line.slice(i));
    if (number) {
      out.push('number', number[0]);
      i += number[0].length;
      continue;
    }
    out.push(/[{}[\],:]/.test(c) ? 'punct' : 'plain', c);
    i++;
  }
  return '';
}

function highlightHtml(line: string, state: LineState, out: TokenList): LineState {
  let i = 0;
  let mode = state;
  while (i < line.length) {
    if (mode === 'comment') {
      const end = line.indexOf('-->', i);
      if (end < 0) {
        out.push('comment', line.slice(i));
        return 'comment';
      }
      out.push('comment', line.slice(i, end + 3));
      i = end + 3;
      mode = '';
      continue;
    }
    if (mode === 'tag') {
      const rest = line.slice(i);
      const close = /^\/?>/.exec(rest);
      if (close) {
        out.push('tag', close[0]);
        i += close[0].length;
        mode = '';
        continue;
      }
      const c = line[i];
      if (c === '"' || c === "'") {
        const end = closingQuote(line, i + 1, c);
        const stop = end < 0 ? line.length : end;
        out.push('string', line.slice(i, stop));
        i = stop;
        continue;
      }
      const attr = /^[^\s=>/"']+/.exec(rest);
      if (attr) {
        out.push('attr', attr[0]);
        i += attr[0].length;
        continue;
      }
      out.push(c === '=' ? 'punct' : 'plain', c);
      i++;
      continue;
    }
    const rest = line.slice(i);
    if (rest.startsWith('<!--')) {
      mode = 'comment';
      out.push('comment', '<!--');
      i += 4;
      continue;
    }
    const open = /^<\/?[A-Za-z!][\w:-]*/.exec(rest);
    if (open) {
      out.push('tag', open[0]);
      i += open[0].length;
      mode = 'tag';
      continue;
    }
    const text = /^[^<]+/.exec(rest);
    const piece = text ? text[0] : line[i];
    out.push('plain', piece);
    i += piece.length;
  }
  return mode;
}

function highlightMarkdownInline(text: string, out: TokenList): void {
  const pattern = /(`[^`]+`)|(\*\*[^*]+\*\*|__[^_]+__)|(\*[^*\s][^*]*\*|_[^_\s][^_]*_)|(\[[^\]]*\]\([^)]*\))/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    out.push('plain', text.slice(last, match.index));
    out.push(match[1] ? 'code' : match[4] ? 'link' : 'emphasis', match[0]);
    last = match.index + match[0].length;
  }
  out.push('plain', text.slice(last));
}

function highlightMarkdown(line: string, state: LineState, out: TokenList): LineState {
  const fence = /^\s*(```|~~~)/.test(line);
  if (state === 'fence') {
    out.push('code', line);
    return fence ? '' : 'fence';
  }
  if (fence) {
    out.push('code', line);
    return 'fence';
  }
  if (/^#{1,6}\s/.test(line)) {
    out.push('heading', line);
    return '';
  }
  const marker = /^(\s*)([-*+]|\d+[.)]|>)(\s)/.exec(line);
  if (marker) {
    out.push('plain', marker[1]);
    out.push('punct', marker[2]);
    out.push('plain', marker[3]);
    highlightMarkdownInline(line.slice(marker[0].length), out);
    return '';
  }
  highlightMarkdownInline(line, out);
  return '';
}

/** Colours one line; `state` is what the previous line ended in ('' for the first). */
export function highlightLine(language: Language, line: string, state: LineState): { tokens: Token[]; state: LineState } {
  const out = new TokenList();
  let next: LineState = '';
  switch (language) {
    case 'ts':
      next = highlightScript(line, state, out);
      break;
    case 'json':
      next = highlightJson(line, out);
      break;
    case 'html':
      next = highlightHtml(line, state, out);
      break;
    case 'markdown':
      next = highlightMarkdown(line, state, out);
      break;
    case 'plain':
      out.push('plain', line);
      break;
  }
  return { tokens: out.tokens, state: next };
}
