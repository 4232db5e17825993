import { useState } from 'react';

/**
 * Asks for a workspace-relative path to mention (the host offers no file list to pick from); Enter inserts it,
 * Escape goes back to the prompt without one.
 */
export function MentionInput({ onDone }: { onDone(path: string | null): void }) {
  const [path, setPath] = useState('');
  return (
    <div className="acp-mention" role="group" aria-label="Mention a file">
      <input
        autoFocus
        data-testid="acp-mention-path"
        aria-label="File to mention (path in the workspace)"
        placeholder="src/file.ts"
        value={path}
        onChange={(event) => setPath(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            onDone(path.trim() || null);
          } else if (event.key === 'Escape') {
            event.preventDefault();
            onDone(null);
          }
        }}
      />
      <button type="button" data-testid="acp-mention-add" disabled={path.trim() === ''} onClick={() => onDone(path.trim())}>
        Mention
      </button>
      <button type="button" className="secondary" onClick={() => onDone(null)}>
        Cancel
      </button>
    </div>
  );
}
