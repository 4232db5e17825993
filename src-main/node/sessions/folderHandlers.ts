import { homedir } from 'node:os';
import type { folderContract } from '../../../src-preload/contract/folders';
import type { Handlers } from '../../../src-preload/rpc';
import type { Ledger } from '../ledger/ledger';
import { createFolder } from './folderCreation';
import { listFolders } from './folderListing';

/**
 * The `folder.*` calls: the new-session form's folder browser. Listing is read-only and names folders only; creating
 * is the user's own act (a click after reading the path), recorded in the ledger like their other acts.
 */
export function createFolderHandlers(ledger: Ledger, actor: string): Handlers<typeof folderContract> {
  return {
    'folder.list': ({ path, includeHidden }) => listFolders(path, homedir(), includeHidden ?? false),
    'folder.create': ({ path }) => {
      const made = createFolder(path);
      if (made.created.length > 0) ledger.append({ type: 'folder.create', actor, payload: { path: made.path, created: made.created } });
      return made;
    },
  };
}
