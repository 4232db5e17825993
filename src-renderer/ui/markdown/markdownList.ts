import { parseInline, type Inline } from './markdownInline';

/** A list whose items may hold nested lists, nested by indentation (ordered and unordered mixed freely). */
export interface ListItem {
  inline: Inline[];
  children: ListBlock[];
}

export interface ListBlock {
  kind: 'list';
  ordered: boolean;
  /** The first number of an ordered list (`3. …` starts at 3); null for bullets. */
  start: number | null;
  items: ListItem[];
}

const ITEM = /^( *)([-*+]|\d{1,9}[.)])[ \t]+(.*)$/;
/** Deeper nesting than this stays at this depth: a card is not a place for a thousand-level staircase. */
export const MAX_LIST_DEPTH = 12;

/** Leading tabs count as four columns (enough for nesting by indentation). */
function expandIndent(line: string): string {
  const lead = /^[ \t]*/.exec(line)![0];
  return lead.includes('\t') ? lead.replace(/\t/g, '    ') + line.slice(lead.length) : line;
}

const indentOf = (line: string): number => /^ */.exec(line)![0].length;

/** Whether a list item starts at `line` (its marker indented at most three columns, as for any block). */
export function startsList(line: string): boolean {
  const item = ITEM.exec(expandIndent(line));
  return item !== null && item[1].length <= 3;
}

interface RawItem {
  text: string[];
  children: RawList[];
}
interface RawList {
  ordered: boolean;
  start: number | null;
  items: RawItem[];
}
interface Level {
  /** The column of this level's markers. */
  indent: number;
  list: RawList;
  /** Where the list sits: the top-level result, or the parent item's children. */
  container: RawList[];
}

/**
 * The lists starting at `lines[start]` (startsList is true there) and the index of the first line after them. An
 * item at least two columns deeper than the items above it starts a list nested in the last of them; a shallower
 * one returns to the level it lines up with; a different marker kind at the same level starts a sibling list. Text
 * lines after an item (indented, or directly below it) continue it; a blank line ends the lists unless another item
 * or an indented line follows; `endsList` names lines that start another block (headings, fences, quotes, rules,
 * tables).
 */
export function parseList(lines: string[], start: number, endsList: (line: string) => boolean): { lists: ListBlock[]; next: number } {
  const top: RawList[] = [];
  const stack: Level[] = [];
  let last: RawItem | null = null;
  let i = start;
  for (; i < lines.length; i++) {
    const line = expandIndent(lines[i]);
    if (line.trim() === '') {
      let j = i + 1;
      while (j < lines.length && lines[j].trim() === '') j++;
      const following = j < lines.length ? expandIndent(lines[j]) : null;
      if (following === null || endsList(following) || !(ITEM.test(following) || indentOf(following) >= 2)) break;
      i = j - 1;
      continue;
    }
    if (i > start && endsList(line)) break;
    const item = ITEM.exec(line);
    if (!item) {
      // Continuation of the last item: indented, or (lazily) right below it.
      if (last === null || (indentOf(line) < 2 && lines[i - 1].trim() === '')) break;
      last.text.push(line.trim());
      continue;
    }
    const indent = item[1].length;
    const ordered = item[2] !== '-' && item[2] !== '*' && item[2] !== '+';
    const number = ordered ? Number.parseInt(item[2], 10) : null;
    const entry: RawItem = { text: [item[3].trim()], children: [] };
    const newList = (container: RawList[]): RawList => {
      const list: RawList = { ordered, start: number, items: [entry] };
      container.push(list);
      return list;
    };
    while (stack.length > 1 && indent < stack[stack.length - 1].indent - 1) stack.pop();
    const level = stack[stack.length - 1];
    if (!level) {
      stack.push({ indent, list: newList(top), container: top });
    } else if (indent >= level.indent + 2 && stack.length < MAX_LIST_DEPTH) {
      const parent = level.list.items[level.list.items.length - 1];
      stack.push({ indent, list: newList(parent.children), container: parent.children });
    } else if (level.list.ordered === ordered) {
      level.list.items.push(entry);
    } else {
      level.list = newList(level.container);
    }
    last = entry;
  }
  const finish = (list: RawList): ListBlock => ({
    kind: 'list',
    ordered: list.ordered,
    start: list.start,
    items: list.items.map((item) => ({ inline: parseInline(item.text.join(' ')), children: item.children.map(finish) })),
  });
  return { lists: top.map(finish), next: i };
}
