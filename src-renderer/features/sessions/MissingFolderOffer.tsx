import { useState } from 'react';
import type { CreatedFolder } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';

/**
 * The folder typed does not exist: offers to create it. Nothing is made until the user clicks, and then exactly
 * that path (the host refuses ".." and relative paths); the answer says which folders were made.
 */
export function MissingFolderOffer({ folder, onCreated }: { folder: string; onCreated: (made: CreatedFolder) => void }) {
  const client = useConnection((s) => s.client);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function create(): Promise<void> {
    if (!client || busy) return;
    setBusy(true);
    setError(null);
    try {
      onCreated(await client.call('folder.create', { path: folder }));
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="missing-folder" data-testid="missing-folder">
      <small>
        <code>{folder}</code> does not exist.
      </small>
      <button type="button" className="secondary" data-testid="create-folder" disabled={!client || busy} aria-busy={busy || undefined} onClick={() => void create()}>
        Create this folder
      </button>
      {error && (
        <small role="alert" data-testid="create-folder-error">
          {error}
        </small>
      )}
    </div>
  );
}
