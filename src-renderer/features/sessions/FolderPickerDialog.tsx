import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { FolderListing } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';
import { useModalDialog } from './useModalDialog';

/** The last part of a path, for the "Use …" button ("/" for the root). */
const lastPart = (path: string): string => path.split('/').filter(Boolean).pop() ?? '/';

/**
 * Browses the host's folders to pick a workspace: the host lists a folder's sub-folders (names only), so it works in
 * a browser page as in the desktop app. Keyboard: arrows move between folders, Enter opens one, Backspace goes up,
 * Escape cancels; "Use" picks the folder shown.
 */
export function FolderPickerDialog({ start, onPick, onClose }: { start: string | undefined; onPick: (path: string) => void; onClose: () => void }) {
  const client = useConnection((s) => s.client);
  const dialog = useRef<HTMLDialogElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const useButton = useRef<HTMLButtonElement>(null);
  const [listing, setListing] = useState<FolderListing | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [showHidden, setShowHidden] = useState(false);

  const load = useCallback(
    async (path: string | undefined, fallBackHome: boolean) => {
      if (!client) return;
      try {
        setListing(await client.call('folder.list', { ...(path ? { path } : {}), includeHidden: showHidden }));
        setError(null);
      } catch (e) {
        setError(errorMessage(e));
        // A typed folder that is not there: start at the home folder, with the reason shown.
        if (fallBackHome) setListing(await client.call('folder.list', { includeHidden: showHidden }).catch(() => null));
      }
    },
    [client, showHidden],
  );

  // Focus goes into the list once it is shown (below).
  useModalDialog(dialog, () => undefined);

  // The folder shown, read by the effect below without making it re-run on every navigation.
  const shown = useRef<string | undefined>(undefined);
  shown.current = listing?.path;
  // The first listing (the typed folder, else home), and the same folder again when "show hidden" changes.
  useEffect(() => {
    void load(shown.current ?? start, shown.current === undefined);
  }, [load, start]);

  // Each new folder shown puts focus in its list: on the folder just come up from, else the first (or on "Use" when
  // it has none). Keyed on the path, so reloading the same folder leaves focus where it is.
  const previous = useRef<string | undefined>(undefined);
  const path = listing?.path;
  useEffect(() => {
    if (path === undefined) return;
    const buttons = [...(list.current?.querySelectorAll<HTMLButtonElement>('button') ?? [])];
    const cameFrom = buttons.find((button) => button.title === previous.current);
    previous.current = path;
    (cameFrom ?? buttons[0] ?? useButton.current)?.focus();
  }, [path]);

  const go = (target: string | null | undefined): void => {
    if (target) void load(target, false);
  };

  function onListKey(event: KeyboardEvent<HTMLUListElement>): void {
    const buttons = [...(list.current?.querySelectorAll<HTMLButtonElement>('button') ?? [])];
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const move = (to: number) => {
      event.preventDefault();
      buttons[Math.max(0, Math.min(buttons.length - 1, to))]?.focus();
    };
    if (event.key === 'ArrowDown') move(at + 1);
    else if (event.key === 'ArrowUp') move(at - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(buttons.length - 1);
    else if (event.key === 'Backspace') {
      event.preventDefault();
      go(listing?.parent);
    }
  }

  return (
    <dialog
      ref={dialog}
      className="folder-picker"
      aria-labelledby="folder-picker-title"
      data-testid="folder-picker"
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <article>
        <h2 id="folder-picker-title">Choose a workspace folder</h2>
        <div className="folder-picker-bar">
          <button type="button" className="secondary icon-button" disabled={!listing?.parent} onClick={() => go(listing?.parent)} aria-label="Up to the folder above (Backspace)">
            ↑ Up
          </button>
          <button type="button" className="secondary icon-button" disabled={!listing} onClick={() => go(listing?.home)} aria-label="Home folder">
            ⌂ Home
          </button>
          <code className="folder-picker-path" data-testid="folder-picker-path" aria-live="polite" title={listing?.path}>
            {/* Isolated left to right inside a right-to-left box: a long path is cut at its start, its slashes stay put. */}
            <bdi dir="ltr">{listing?.path ?? '…'}</bdi>
          </code>
        </div>
        {error && (
          <small role="alert" className="folder-picker-error" data-testid="folder-picker-error">
            {error}
          </small>
        )}
        <ul ref={list} className="folder-picker-list" aria-label={listing ? `Folders in ${listing.path}` : 'Folders'} onKeyDown={onListKey}>
          {listing?.folders.map((folder) => (
            <li key={folder.path}>
              <button type="button" data-testid="folder-picker-entry" title={folder.path} onClick={() => go(folder.path)}>
                <span aria-hidden="true">▸ </span>
                {folder.name}
              </button>
            </li>
          ))}
          {listing && listing.folders.length === 0 && <li className="muted">No folders in here.</li>}
          {listing?.truncated && <li className="muted">Only the first {listing.folders.length} folders are shown; type a path to go further.</li>}
        </ul>
        <label className="folder-picker-hidden">
          <input type="checkbox" role="switch" checked={showHidden} onChange={(e) => setShowHidden(e.target.checked)} />
          Show hidden folders
        </label>
        <footer>
          <button type="button" className="secondary" onClick={onClose}>
            Cancel
          </button>
          <button ref={useButton} type="button" data-testid="folder-picker-use" disabled={!listing} onClick={() => listing && onPick(listing.path)}>
            Use “{listing ? lastPart(listing.path) : '…'}”
          </button>
        </footer>
      </article>
    </dialog>
  );
}
