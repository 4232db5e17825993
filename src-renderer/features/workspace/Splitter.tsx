import type { KeyboardEvent, PointerEvent, RefObject } from 'react';

/** Which edge of the container the resized pane sits on: the value is that pane's share, in percent. */
export type PaneEdge = 'bottom' | 'right' | 'left';

interface Props {
  label: string;
  /** The id of the pane this splitter sizes. */
  controls: string;
  edge: PaneEdge;
  value: number;
  min: number;
  max: number;
  /** The box the percentages are of. */
  containerRef: RefObject<HTMLElement | null>;
  onChange(value: number): void;
  testId?: string;
}

const STEP = 5;

/** The arrow key that makes the pane bigger, for each edge it sits on. */
const GROW: Record<PaneEdge, string> = { bottom: 'ArrowUp', right: 'ArrowLeft', left: 'ArrowRight' };
const SHRINK: Record<PaneEdge, string> = { bottom: 'ArrowDown', right: 'ArrowRight', left: 'ArrowLeft' };

/**
 * A bar between two panes, dragged with the pointer or moved with the arrow keys once focused (Home and End go to
 * the limits). It is a focusable separator with its value, as WAI-ARIA's window splitter pattern has it, so a
 * screen reader says how big the pane is.
 */
export function Splitter({ label, controls, edge, value, min, max, containerRef, onChange, testId }: Props) {
  const vertical = edge !== 'bottom';
  const clamp = (v: number): number => Math.round(Math.min(max, Math.max(min, v)));

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>): void {
    let next: number | null = null;
    if (event.key === GROW[edge]) next = value + STEP;
    else if (event.key === SHRINK[edge]) next = value - STEP;
    else if (event.key === 'Home') next = min;
    else if (event.key === 'End') next = max;
    if (next === null) return;
    event.preventDefault();
    onChange(clamp(next));
  }

  function share(event: PointerEvent<HTMLDivElement>): number | null {
    const box = containerRef.current?.getBoundingClientRect();
    if (!box || box.width === 0 || box.height === 0) return null;
    if (edge === 'bottom') return ((box.bottom - event.clientY) / box.height) * 100;
    if (edge === 'right') return ((box.right - event.clientX) / box.width) * 100;
    return ((event.clientX - box.left) / box.width) * 100;
  }

  function onPointerDown(event: PointerEvent<HTMLDivElement>): void {
    if (event.button !== 0) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    event.currentTarget.focus();
  }

  function onPointerMove(event: PointerEvent<HTMLDivElement>): void {
    if (!event.currentTarget.hasPointerCapture(event.pointerId)) return;
    const next = share(event);
    if (next !== null && clamp(next) !== value) onChange(clamp(next));
  }

  return (
    <div
      role="separator"
      tabIndex={0}
      className={`splitter ${vertical ? 'splitter-vertical' : 'splitter-horizontal'}`}
      aria-label={label}
      aria-controls={controls}
      aria-orientation={vertical ? 'vertical' : 'horizontal'}
      aria-valuenow={value}
      aria-valuemin={min}
      aria-valuemax={max}
      aria-valuetext={`${value}%`}
      title={`${label}: drag, or focus and use the arrow keys`}
      data-testid={testId}
      onKeyDown={onKeyDown}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
    />
  );
}
