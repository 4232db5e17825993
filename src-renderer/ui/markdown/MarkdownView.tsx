import { createElement, useMemo, type ReactNode } from 'react';
import { highlightLine, languageOf } from '../code/highlight';
import { TokenSpans } from '../code/TokenSpans';
import { parseMarkdown, type Inline, type ListBlock, type TableBlock } from './markdown';

function InlineText({ inline }: { inline: Inline[] }): ReactNode {
  return inline.map((part, i) => {
    switch (part.kind) {
      case 'text':
        return part.text;
      case 'code':
        return <code key={i}>{part.text}</code>;
      case 'strong':
        return <strong key={i}>{part.text}</strong>;
      case 'em':
        return <em key={i}>{part.text}</em>;
      case 'link':
        // Shown with its address, not followed: an agent's link is not a place the app should navigate to.
        return (
          <span key={i} className="md-link" title={part.href}>
            {part.text} <span className="muted">({part.href})</span>
          </span>
        );
    }
  });
}

function CodeBlock({ language, text }: { language: string | null; text: string }) {
  const lang = languageOf(language);
  let state = '';
  const lines = text.split('\n').map((line, i) => {
    const result = highlightLine(lang, line, state);
    state = result.state;
    return (
      <span key={i}>
        <TokenSpans tokens={result.tokens} />
        {'\n'}
      </span>
    );
  });
  return (
    <pre className="md-code">
      <code>{lines}</code>
    </pre>
  );
}

function List({ list }: { list: ListBlock }) {
  const items = list.items.map((item, j) => (
    <li key={j}>
      <InlineText inline={item.inline} />
      {item.children.map((child, k) => (
        <List key={k} list={child} />
      ))}
    </li>
  ));
  return list.ordered ? <ol start={list.start ?? undefined}>{items}</ol> : <ul>{items}</ul>;
}

function Table({ table }: { table: TableBlock }) {
  const style = (column: number) => (table.align[column] ? { textAlign: table.align[column] } : undefined);
  return (
    <div className="md-table">
      <table>
        <thead>
          <tr>
            {table.header.map((cell, j) => (
              <th key={j} style={style(j)}>
                <InlineText inline={cell} />
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row, r) => (
            <tr key={r}>
              {row.map((cell, j) => (
                <td key={j} style={style(j)}>
                  <InlineText inline={cell} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Markdown rendered from the safe subset (see markdown.ts): text only, never HTML. */
export function MarkdownView({ source }: { source: string }) {
  const blocks = useMemo(() => parseMarkdown(source), [source]);
  return (
    <div className="markdown-body" data-testid="markdown-body">
      {blocks.map((block, i) => {
        switch (block.kind) {
          case 'heading':
            return createElement(`h${Math.min(6, block.level + 2)}`, { key: i }, <InlineText inline={block.inline} />);
          case 'paragraph':
            return (
              <p key={i}>
                <InlineText inline={block.inline} />
              </p>
            );
          case 'list':
            return <List key={i} list={block} />;
          case 'table':
            return <Table key={i} table={block} />;
          case 'quote':
            return (
              <blockquote key={i}>
                <InlineText inline={block.inline} />
              </blockquote>
            );
          case 'code':
            return <CodeBlock key={i} language={block.language} text={block.text} />;
          case 'rule':
            return <hr key={i} />;
        }
      })}
    </div>
  );
}
