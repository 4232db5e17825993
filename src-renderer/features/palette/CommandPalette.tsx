import './palette.css';
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { createPortal } from 'react-dom';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';
import { useSessions } from '../../ui/sessionsStore';
import { HighlightedText } from './HighlightedText';
import type { PaletteAction, PaletteContext } from './paletteAction';
import { paletteItems, parseQuery, type PaletteItem } from './paletteItems';
import { usePalette } from './paletteStore';
import { switchToSession } from './switchToSession';

const LIST_ID = 'command-palette-list';
const optionId = (index: number): string => `command-palette-option-${index}`;
/** PageUp/PageDown move by this many options. */
const PAGE = 8;

/** Focus goes back where it was only if that element is still there and shown (a view switch may have hidden it). */
function restoreFocus(element: HTMLElement | null): void {
  if (element?.isConnected && element.getClientRects().length > 0) element.focus();
}

/**
 * While the palette is up, the app behind it is inert: no focus, no clicks, hidden from assistive technology. Returns
 * the release, which closing calls at once: focus can only go back into the app once it is no longer inert, and the
 * effect's cleanup would come a render too late for that.
 */
function useAppInert(): () => void {
  const release = useRef<() => void>(() => undefined);
  useEffect(() => {
    const app = document.getElementById('root');
    if (!app) return;
    const before = app.inert;
    app.inert = true;
    let released = false;
    release.current = () => {
      if (released) return;
      released = true;
      app.inert = before;
    };
    return () => release.current();
  }, []);
  return () => release.current();
}

/**
 * The command palette and session switcher (Ctrl+K, Ctrl+Shift+P, F1): a modal combobox over the window. Typing
 * filters sessions and commands fuzzily; arrows, Page Up/Down, Home and End move; Enter runs; Escape closes and gives
 * the keyboard back. The actions come from the app, which knows the features they call.
 */
export function CommandPalette({ actions }: { actions: readonly PaletteAction[] }) {
  const open = usePalette((s) => s.open);
  const failure = usePalette((s) => s.failure);
  return (
    <>
      {open && <PaletteDialog actions={actions} />}
      {failure && !open && (
        <div className="palette-failure" role="alert" data-testid="palette-failure">
          <span>
            {failure.title} failed: {failure.message}
          </span>
          <button type="button" className="secondary outline" onClick={() => usePalette.getState().setFailure(null)}>
            Dismiss
          </button>
        </div>
      )}
    </>
  );
}

function PaletteDialog({ actions }: { actions: readonly PaletteAction[] }) {
  const releaseApp = useAppInert();
  const query = usePalette((s) => s.query);
  const client = useConnection((s) => s.client);
  const userHome = useConnection((s) => s.hostInfo?.userHome);
  const sessions = useSessions((s) => s.sessions);
  const selectedId = useSessions((s) => s.selectedId);
  const showClosed = useSessions((s) => s.showClosed);
  const session = useMemo(() => sessions.find((s) => s.id === selectedId) ?? null, [sessions, selectedId]);
  const context: PaletteContext = useMemo(() => ({ client, session }), [client, session]);
  const items = useMemo(
    () => paletteItems({ query, actions, sessions, selectedId, includeClosed: showClosed, userHome, context }),
    [query, actions, sessions, selectedId, showClosed, userHome, context],
  );
  // The highlight starts on the best match even when that cannot run: Enter then does nothing and its reason shows,
  // rather than running a weaker match the user did not mean.
  const [active, setActive] = useState(0);
  const [activeFor, setActiveFor] = useState(query);
  const input = useRef<HTMLInputElement>(null);
  const commandsOnly = parseQuery(query).commandsOnly;

  // A new query starts again at the best match (set while rendering, so no frame shows the old highlight).
  if (activeFor !== query) {
    setActiveFor(query);
    setActive(0);
  }
  // The list can shrink under the highlight (a session closed elsewhere).
  const current = Math.min(active, items.length - 1);

  useLayoutEffect(() => input.current?.focus(), []);
  useEffect(() => {
    if (current >= 0) document.getElementById(optionId(current))?.scrollIntoView({ block: 'nearest' });
  }, [current]);

  function close(): void {
    const { returnFocus } = usePalette.getState();
    usePalette.getState().close();
    releaseApp();
    restoreFocus(returnFocus);
  }

  function run(item: PaletteItem | undefined): void {
    if (!item) return;
    if (item.kind === 'command' && !item.availability.enabled) return;
    // Focus goes back first, so an action that moves it (a new terminal, the goal panel) has the last word.
    close();
    if (item.kind === 'session') {
      switchToSession(item.session.id);
      return;
    }
    const { title, run: runAction } = item.action;
    try {
      const done = runAction(context);
      if (done) done.catch((error: unknown) => usePalette.getState().setFailure({ title, message: errorMessage(error) }));
    } catch (error) {
      usePalette.getState().setFailure({ title, message: errorMessage(error) });
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>): void {
    const last = items.length - 1;
    const move = (to: number): void => {
      event.preventDefault();
      if (items.length > 0) setActive(Math.max(0, Math.min(last, to)));
    };
    switch (event.key) {
      case 'ArrowDown':
        // Wraps around, as VS Code's does: from the last option Down goes to the first.
        event.preventDefault();
        if (items.length > 0) setActive(current >= last ? 0 : current + 1);
        return;
      case 'ArrowUp':
        event.preventDefault();
        if (items.length > 0) setActive(current <= 0 ? last : current - 1);
        return;
      case 'PageDown':
        return move(current + PAGE);
      case 'PageUp':
        return move(current - PAGE);
      case 'Home':
        if (!event.shiftKey) move(0);
        return;
      case 'End':
        if (!event.shiftKey) move(last);
        return;
      case 'Enter':
        event.preventDefault();
        run(items[current]);
        return;
      case 'Escape':
        event.preventDefault();
        event.stopPropagation();
        close();
        return;
      case 'Tab':
        // The input is the dialog's one stop: the options are reached with the arrows.
        event.preventDefault();
        return;
    }
  }

  const text = parseQuery(query).text;
  return createPortal(
    <div
      className="palette-backdrop"
      data-testid="palette-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) close();
      }}
    >
      <div className="palette" role="dialog" aria-modal="true" aria-label="Command palette" data-testid="command-palette">
        <input
          ref={input}
          type="text"
          role="combobox"
          aria-label={commandsOnly ? 'Search commands' : 'Search sessions and commands'}
          aria-expanded="true"
          aria-controls={LIST_ID}
          aria-autocomplete="list"
          aria-activedescendant={current >= 0 ? optionId(current) : undefined}
          aria-describedby="command-palette-hint"
          placeholder={commandsOnly ? 'Run a command…' : 'Switch to a session, or run a command…'}
          spellCheck={false}
          autoComplete="off"
          value={query}
          data-testid="palette-input"
          onChange={(event) => usePalette.getState().setQuery(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <ul className="palette-list" id={LIST_ID} role="listbox" aria-label={commandsOnly ? 'Commands' : 'Sessions and commands'}>
          {items.map((item, index) => (
            <PaletteOption key={item.key} item={item} index={index} active={index === current} onHover={setActive} onRun={run} />
          ))}
        </ul>
        {items.length === 0 && (
          <p className="palette-empty muted" data-testid="palette-empty">
            {commandsOnly ? 'No command matches' : 'No session or command matches'} “{text}”.
          </p>
        )}
        <p className="palette-sr-only" role="status">
          {items.length === 1 ? '1 result' : `${items.length} results`}
        </p>
        <footer className="palette-hint muted" id="command-palette-hint" data-testid="palette-hint">
          {commandsOnly ? (
            <>Commands only: delete the &gt; to list sessions too.</>
          ) : (
            <>
              Sessions first; type <kbd>&gt;</kbd> for commands only.
            </>
          )}{' '}
          <kbd>↑</kbd> <kbd>↓</kbd> move · <kbd>Enter</kbd> run · <kbd>Esc</kbd> close
        </footer>
      </div>
    </div>,
    document.body,
  );
}

interface OptionProps {
  item: PaletteItem;
  index: number;
  active: boolean;
  onHover(index: number): void;
  onRun(item: PaletteItem): void;
}

/** One option: a session (name, folder) or a command (title, shortcut, or why it cannot run now). */
function PaletteOption({ item, index, active, onHover, onRun }: OptionProps) {
  const disabled = item.kind === 'command' && !item.availability.enabled;
  return (
    <li
      id={optionId(index)}
      role="option"
      aria-selected={active}
      aria-disabled={disabled || undefined}
      className={`palette-option${active ? ' active' : ''}${disabled ? ' disabled' : ''}`}
      data-testid="palette-option"
      data-kind={item.kind}
      data-id={item.kind === 'command' ? item.action.id : item.session.id}
      onMouseMove={() => {
        if (!active) onHover(index);
      }}
      // Mouse down would take focus from the input; the click still runs the option.
      onMouseDown={(event) => event.preventDefault()}
      onClick={() => onRun(item)}
    >
      {item.kind === 'session' ? (
        <>
          <span className="palette-kind" aria-hidden="true">
            Session
          </span>
          <span className="palette-title">
            <HighlightedText text={item.session.name} positions={item.positions} />
            <span className="palette-sr-only">, session</span>
          </span>
          <span className="palette-detail muted">
            <HighlightedText text={item.folder} positions={item.folderPositions} />
          </span>
          {item.current && <span className="badge palette-badge">shown</span>}
          {item.session.status === 'closed' && <span className="badge palette-badge">closed</span>}
        </>
      ) : (
        <>
          <span className="palette-kind" aria-hidden="true">
            Command
          </span>
          <span className="palette-title">
            <HighlightedText text={item.action.title} positions={item.positions} />
          </span>
          {!item.availability.enabled && (
            <span className="palette-detail palette-reason" data-testid="palette-reason">
              {item.availability.reason}
            </span>
          )}
          {item.action.shortcut && (
            <kbd className="palette-shortcut">
              {item.action.shortcut}
            </kbd>
          )}
        </>
      )}
    </li>
  );
}
