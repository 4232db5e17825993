import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { RpcError } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';
import { hasPlanHeading, withExamplePlan } from './examplePlan';
import { useGoal } from './goalStore';
import { PlanCheckStatus } from './PlanCheckStatus';
import { usePlanCheck } from './usePlanCheck';

type SaveState =
  | { kind: 'loading' }
  | { kind: 'load_failed'; message: string }
  | { kind: 'clean' }
  | { kind: 'dirty' }
  | { kind: 'saving' }
  | { kind: 'saved'; ledgerSeq: number | null }
  | { kind: 'failed'; message: string; conflict: boolean };

const PLACEHOLDER = `# Project: …

## Vision
What is being built, for whom.

## Tech Stack
- …

## Architecture Constraints
1. …

## Current Phase Focus
Phase 1: …`;

/**
 * `.meta/context.md`, the run's source of truth (agents can only read it). Load, edit, save with Ctrl+S or the button;
 * every save is a ledger entry with the old and new hash. A save is refused (and says so) when the file changed on disk
 * since it was loaded, so an edit made elsewhere is never overwritten unseen.
 */
export function ContextEditor({ sessionId, disabled }: { sessionId: string; disabled: boolean }) {
  const client = useConnection((s) => s.client);
  const [text, setText] = useState('');
  const [loadedSha, setLoadedSha] = useState<string | null>(null);
  const [state, setState] = useState<SaveState>({ kind: 'loading' });
  const [reloadCount, setReloadCount] = useState(0);
  // Which load (session, Reload count) the editor holds: a reconnection must not throw away unsaved edits.
  const loadedKey = useRef<string | null>(null);
  const textArea = useRef<HTMLTextAreaElement>(null);
  const loaded = state.kind !== 'loading' && state.kind !== 'load_failed';
  const planCheck = usePlanCheck(text, loaded && !disabled);

  useEffect(() => {
    const key = `${sessionId}:${reloadCount}`;
    if (!client || loadedKey.current === key) return;
    let cancelled = false;
    setState({ kind: 'loading' });
    client
      .call('goal.context', { sessionId })
      .then((file) => {
        if (cancelled) return;
        setText(file.text ?? '');
        setLoadedSha(file.sha256);
        loadedKey.current = key;
        setState({ kind: 'clean' });
      })
      .catch((error: unknown) => {
        if (!cancelled) setState({ kind: 'load_failed', message: errorMessage(error) });
      });
    return () => {
      cancelled = true;
    };
  }, [sessionId, reloadCount, client]);

  async function save(): Promise<void> {
    if (!client || disabled || state.kind === 'saving' || state.kind === 'loading' || state.kind === 'load_failed') return;
    setState({ kind: 'saving' });
    try {
      const saved = await client.call('goal.saveContext', { sessionId, text, expectedSha256: loadedSha });
      setLoadedSha(saved.sha256);
      setState({ kind: 'saved', ledgerSeq: saved.ledgerSeq });
      // What Run said about the old text (a plan error) no longer holds.
      useGoal.getState().noteContextSaved(sessionId);
    } catch (error) {
      setState({ kind: 'failed', message: errorMessage(error), conflict: error instanceof RpcError && error.code === 'CONFLICT' });
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLElement>): void {
    if ((event.ctrlKey || event.metaKey) && !event.shiftKey && !event.altKey && event.key.toLowerCase() === 's') {
      event.preventDefault();
      void save();
    }
  }

  /** Puts the text cursor on a 1-based line of the editor and scrolls it into view. */
  function showLine(line: number): void {
    const area = textArea.current;
    if (!area) return;
    const lines = text.split('\n');
    const start = lines.slice(0, line - 1).reduce((sum, l) => sum + l.length + 1, 0);
    area.focus();
    area.setSelectionRange(start, start + (lines[line - 1]?.length ?? 0));
    const lineHeight = parseFloat(getComputedStyle(area).lineHeight) || 18;
    area.scrollTop = Math.max(0, (line - 3) * lineHeight);
  }

  function insertExample(): void {
    const next = withExamplePlan(text);
    if (next.start < 0) return;
    setText(next.text);
    if (state.kind !== 'saving') setState({ kind: 'dirty' });
    // After React has put the new text in: the cursor at the plan's heading, so typing goes on from there.
    requestAnimationFrame(() => {
      const area = textArea.current;
      if (!area) return;
      area.focus();
      area.setSelectionRange(next.start, next.start);
      area.scrollTop = area.scrollHeight;
    });
  }

  const busy = state.kind === 'loading' || state.kind === 'saving';
  return (
    <section className="goal-context" aria-label="Context (.meta/context.md)" data-testid="goal-context" onKeyDown={onKeyDown}>
      <div className="goal-section-head">
        <h4>
          Context <code className="muted">.meta/context.md</code>
        </h4>
        <span className="goal-save-status" data-testid="goal-context-status" data-state={state.kind} role="status" aria-live="polite">
          {state.kind === 'loading' && 'Loading…'}
          {state.kind === 'clean' && (loadedSha ? 'No changes' : 'No context.md yet')}
          {state.kind === 'dirty' && 'Unsaved changes'}
          {state.kind === 'saving' && 'Saving…'}
          {state.kind === 'saved' && (state.ledgerSeq === null ? 'Saved (unchanged)' : `Saved · ledger #${state.ledgerSeq}`)}
        </span>
      </div>
      <textarea
        ref={textArea}
        className="goal-context-text"
        data-testid="goal-context-text"
        aria-label="context.md"
        aria-keyshortcuts="Control+S"
        spellCheck={false}
        placeholder={PLACEHOLDER}
        value={text}
        disabled={disabled || state.kind === 'loading' || state.kind === 'load_failed'}
        onChange={(event) => {
          setText(event.target.value);
          if (state.kind !== 'saving') setState({ kind: 'dirty' });
        }}
      />
      <PlanCheckStatus state={planCheck} onShowLine={showLine} />
      {(state.kind === 'failed' || state.kind === 'load_failed') && (
        <p className="item-error" role="alert" data-testid="goal-context-error">
          {state.kind === 'failed' ? 'Not saved: ' : 'context.md cannot be read: '}
          {state.message}
        </p>
      )}
      <div className="goal-buttons">
        <button type="button" data-testid="goal-context-save" disabled={!client || disabled || busy || state.kind === 'load_failed'} title="Save (Ctrl+S)" onClick={() => void save()}>
          Save
        </button>
        <button
          type="button"
          className="secondary"
          data-testid="goal-insert-example"
          disabled={disabled || !loaded || hasPlanHeading(text)}
          title={hasPlanHeading(text) ? 'context.md has a "## Plan" section already' : 'Add a "## Plan" section with three example tasks, to edit into your own'}
          onClick={insertExample}
        >
          Insert an example plan
        </button>
        <button
          type="button"
          className="secondary"
          data-testid="goal-context-reload"
          disabled={!client || busy}
          title="Load the file as it is on disk (unsaved changes are dropped)"
          onClick={() => {
            if (state.kind === 'dirty' && !window.confirm('Drop your unsaved changes to context.md and load the file from disk?')) return;
            setReloadCount((n) => n + 1);
          }}
        >
          {state.kind === 'failed' && state.conflict ? 'Reload from disk' : 'Reload'}
        </button>
      </div>
    </section>
  );
}
