import { useCallback, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { FileDiff } from '../../../src-preload/contract';
import { highlightLine, languageOf, type Language } from '../../ui/code/highlight';
import { stateAtLine } from '../../ui/code/lineStates';
import { TokenSpans } from '../../ui/code/TokenSpans';
import { VirtualRows, type VirtualRowsHandle } from '../../ui/VirtualRows';
import { layoutDiff, nextHunk, type DiffCell, type DiffMode } from './diffLayout';
import { HunkHeader } from './HunkHeader';

export const REVIEW_ROW_HEIGHT = 22;

interface Props {
  diff: FileDiff;
  mode: DiffMode;
  /** What a verdict is being given on ("file" or a hunk's index); null when none is. */
  pending: 'file' | number | null;
  disabled: boolean;
  onVerdict(verdict: 'accepted' | 'rejected', hunk: number): void;
}

function Code({ cell, lines, language }: { cell: DiffCell; lines: readonly string[]; language: Language }): ReactNode {
  const { tokens } = highlightLine(language, cell.text, stateAtLine(lines, language, cell.at));
  return (
    <>
      <TokenSpans tokens={tokens} />
      {cell.omitted > 0 && <span className="review-cut muted">{` … ${cell.omitted.toLocaleString()} more characters`}</span>}
    </>
  );
}

const sideClass: Record<DiffCell['type'], string> = { ' ': 'review-context', '+': 'review-added', '-': 'review-removed' };

/**
 * One file's hunks, unified or side by side, syntax-highlighted, with Accept / Reject on each hunk's header.
 * Virtualised: only the rows on screen exist, so a diff of thousands of lines opens as fast as a short one.
 * Keys (while the diff has focus): j / k next and previous hunk, a accept it, r reject it.
 */
export function FileDiffView({ diff, mode, pending, disabled, onVerdict }: Props) {
  const layout = useMemo(() => layoutDiff(diff.hunks, mode), [diff.hunks, mode]);
  const language = useMemo(() => languageOf(diff.file.path), [diff.file.path]);
  const list = useRef<VirtualRowsHandle>(null);
  const [current, setCurrent] = useState<number | null>(null);
  const onRangeChange = useCallback(() => undefined, []);
  const hunkCount = diff.hunks.length;
  const currentHunk = current !== null && current < hunkCount ? current : null;

  function go(step: 1 | -1): void {
    const target = nextHunk(hunkCount, currentHunk, step);
    if (target === null) return;
    setCurrent(target);
    list.current?.scrollToIndex(layout.hunkRows[target]);
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>): void {
    if (event.ctrlKey || event.altKey || event.metaKey || event.target !== event.currentTarget) return;
    if (event.key === 'j') go(1);
    else if (event.key === 'k') go(-1);
    else if ((event.key === 'a' || event.key === 'r') && currentHunk !== null && !disabled && pending === null)
      onVerdict(event.key === 'a' ? 'accepted' : 'rejected', diff.hunks[currentHunk].index);
    else return;
    event.preventDefault();
  }

  const renderRow = (index: number, top: number, slot: number): ReactNode => {
    const row = layout.rows[index];
    const style = { top, height: REVIEW_ROW_HEIGHT };
    if (row.kind === 'hunk') {
      const hunk = diff.hunks[row.hunk];
      return (
        <div
          key={slot}
          className={`review-row review-hunk${row.hunk === currentHunk ? ' review-hunk-current' : ''}`}
          style={style}
          data-testid="review-hunk"
          data-hunk={hunk.index}
          data-verdict={hunk.verdict}
        >
          <HunkHeader
            hunk={hunk}
            current={row.hunk === currentHunk}
            busy={pending === 'file' || pending === hunk.index}
            disabled={disabled || pending !== null}
            onVerdict={(verdict) => {
              setCurrent(row.hunk);
              onVerdict(verdict, hunk.index);
            }}
          />
        </div>
      );
    }
    if (row.kind === 'note') {
      return (
        <div key={slot} className="review-row review-note muted" style={style}>
          {row.text}
        </div>
      );
    }
    if (row.kind === 'line') {
      const lines = row.cell.type === '-' ? layout.oldLines : layout.newLines;
      return (
        <div key={slot} className={`review-row review-line ${sideClass[row.cell.type]}`} style={style} data-testid="review-line">
          <span className="review-no">{row.oldNo ?? ''}</span>
          <span className="review-no">{row.newNo ?? ''}</span>
          <span className="review-sign" aria-hidden="true">
            {row.cell.type}
          </span>
          <span className="review-code">
            <Code cell={row.cell} lines={lines} language={language} />
          </span>
        </div>
      );
    }
    return (
      <div key={slot} className="review-row review-pair" style={style} data-testid="review-line">
        {[row.left, row.right].map((cell, side) => (
          <span key={side} className={`review-half ${cell ? sideClass[cell.type] : 'review-empty'}`}>
            <span className="review-no">{cell?.no ?? ''}</span>
            <span className="review-code">{cell && <Code cell={cell} lines={side === 0 ? layout.oldLines : layout.newLines} language={language} />}</span>
          </span>
        ))}
      </div>
    );
  };

  return (
    <VirtualRows
      ref={list}
      className="review-diff"
      role="region"
      aria-label={`Diff of ${diff.file.path}, ${hunkCount} hunk(s). j and k move between hunks, a accepts and r rejects the current one`}
      tabIndex={0}
      data-testid="review-diff"
      data-mode={mode}
      data-row-count={layout.rows.length}
      count={layout.rows.length}
      rowHeight={REVIEW_ROW_HEIGHT}
      renderRow={renderRow}
      onRangeChange={onRangeChange}
      onKeyDown={onKeyDown}
    />
  );
}
