/**
 * A safe subset of Markdown, parsed into plain data that React renders as text: headings, paragraphs, lists (nested
 * by indentation), GFM tables, block quotes, fenced code, rules; inline code, strong, emphasis, links and escapes
 * (markdownInline.ts). Nothing an agent writes becomes HTML, and links are shown, never followed from here.
 */
import { parseInline, type Inline } from './markdownInline';
import { parseList, startsList, type ListBlock, type ListItem } from './markdownList';
import { parseTable, startsTable, type CellAlign, type TableBlock } from './markdownTable';

export { isSafeHref, parseInline, type Inline } from './markdownInline';
export type { CellAlign, ListBlock, ListItem, TableBlock };

export type Block =
  | { kind: 'heading'; level: number; inline: Inline[] }
  | { kind: 'paragraph'; inline: Inline[] }
  | ListBlock
  | TableBlock
  | { kind: 'quote'; inline: Inline[] }
  | { kind: 'code'; language: string | null; text: string }
  | { kind: 'rule' };

const FENCE = /^\s{0,3}(```|~~~)\s*([\w+-]*)/;
const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const RULE = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;
const QUOTE = /^\s{0,3}>\s?(.*)$/;

/** Lines that start a block of their own, so they end a table or a list running into them. */
function startsOtherBlock(line: string, next?: string): boolean {
  return FENCE.test(line) || HEADING.test(line) || RULE.test(line) || QUOTE.test(line) || startsTable(line, next);
}

export function parseMarkdown(source: string): Block[] {
  const lines = source.split(/\r?\n/);
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  const endParagraph = (): void => {
    if (paragraph.length > 0) blocks.push({ kind: 'paragraph', inline: parseInline(paragraph.join(' ')) });
    paragraph = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = FENCE.exec(line);
    if (fence) {
      endParagraph();
      const body: string[] = [];
      let j = i + 1;
      while (j < lines.length && !lines[j].trimStart().startsWith(fence[1])) body.push(lines[j++]);
      blocks.push({ kind: 'code', language: fence[2] || null, text: body.join('\n') });
      i = j;
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      endParagraph();
      blocks.push({ kind: 'heading', level: heading[1].length, inline: parseInline(heading[2]) });
      continue;
    }
    if (startsTable(line, lines[i + 1])) {
      endParagraph();
      const { table, next } = parseTable(lines, i, (row) => startsOtherBlock(row) || startsList(row));
      blocks.push(table);
      i = next - 1;
      continue;
    }
    if (RULE.test(line)) {
      endParagraph();
      blocks.push({ kind: 'rule' });
      continue;
    }
    if (startsList(line)) {
      endParagraph();
      const { lists, next } = parseList(lines, i, (row) => startsOtherBlock(row));
      blocks.push(...lists);
      i = next - 1;
      continue;
    }
    const quote = QUOTE.exec(line);
    if (quote) {
      endParagraph();
      blocks.push({ kind: 'quote', inline: parseInline(quote[1]) });
      continue;
    }
    if (line.trim() === '') endParagraph();
    else paragraph.push(line.trim());
  }
  endParagraph();
  return blocks;
}
