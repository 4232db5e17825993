import { z } from 'zod';
import { call } from './define';

/**
 * A folder path as the UI may send it: absolute, no NUL byte (the OS would cut the path there, so the host could act
 * on another path than the one shown), at most 4096 characters. The host resolves the rest (symlinks, `.`).
 */
export const AbsoluteFolderPath = z
  .string()
  .min(1, 'give a folder as an absolute path, e.g. /home/you/project')
  .max(4096, 'at most 4096 characters')
  .refine((path) => !path.includes('\0'), 'a folder path cannot contain a NUL byte')
  .refine((path) => path.startsWith('/'), 'give the folder as an absolute path starting with "/", e.g. /home/you/project');

/** One folder of a listing: its name only (never a file, never anything of its contents). */
export const FolderEntry = z.object({
  name: z.string(),
  /** Its absolute path, ready to list or to use as a workspace. */
  path: z.string(),
  /** A name starting with ".": the browser shows these only when asked. */
  hidden: z.boolean(),
});
export type FolderEntry = z.infer<typeof FolderEntry>;

export const FolderListing = z.object({
  /** The folder listed, as its real absolute path (symlinks resolved). */
  path: z.string(),
  /** The folder above, or null at the root. */
  parent: z.string().nullable(),
  /** The user's home folder: where "Home" goes. */
  home: z.string(),
  /** The sub-folders, sorted by name; sub-folders the host cannot look at are left out. */
  folders: z.array(FolderEntry),
  /** More sub-folders than a listing carries: the first ones by name are given. */
  truncated: z.boolean(),
});
export type FolderListing = z.infer<typeof FolderListing>;

export const CreatedFolder = z.object({
  /** The folder asked for, as its real absolute path. */
  path: z.string(),
  /** The folders made, outermost first (empty when it already existed). */
  created: z.array(z.string()),
});
export type CreatedFolder = z.infer<typeof CreatedFolder>;

/**
 * Browsing the host's folders to pick a workspace, in the browser page as in the desktop app (a native dialog would
 * show the browser's machine, not the host's), and creating a missing one when the user asks.
 */
export const folderContract = {
  /** A folder's sub-folders (names only). No path: the user's home. */
  'folder.list': call(z.object({ path: AbsoluteFolderPath.optional(), includeHidden: z.boolean().optional() }), FolderListing),
  /**
   * Makes the folder and any missing folder above it (mkdir -p), on the user's explicit click. A path with a ".."
   * segment is refused: what is made must be exactly the path the user read.
   */
  'folder.create': call(z.object({ path: AbsoluteFolderPath }), CreatedFolder),
};
