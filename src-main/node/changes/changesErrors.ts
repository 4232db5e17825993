import { DomainError } from '../base/domainError';

/** The file on disk changed since the turn, where the hunk is: reverting it now would overwrite those later edits. */
export class HunkNoLongerAppliesError extends DomainError {
  constructor(path: string, hunkIndex: number | null) {
    const what = hunkIndex === null ? `the changes to ${path}` : `hunk ${hunkIndex + 1} of ${path}`;
    super(
      'conflict',
      `${what} can no longer be rejected: the file was changed again since, where the change is. ` +
        'Open the file and undo the change by hand, or restore the snapshot before the turn',
    );
    this.name = 'HunkNoLongerAppliesError';
  }
}

/** Something is now where the file would be put back (a file the user or a later turn created): it is left alone. */
export class PathTakenError extends DomainError {
  constructor(path: string) {
    super('conflict', `${path} cannot be put back: something else is there now. Move or delete it first, then try again`);
    this.name = 'PathTakenError';
  }
}

/**
 * A path a restore or a reject would write is not a plain path inside the workspace: absolute, with "..", or under a
 * folder that is now a symbolic link (an agent may have replaced a folder by a link to /etc). Nothing is written.
 */
export class UnsafeWorkspacePathError extends DomainError {
  constructor(path: string, why: string) {
    super('invalid_input', `refusing to write ${JSON.stringify(path)} in the workspace: ${why}`);
    this.name = 'UnsafeWorkspacePathError';
  }
}

/** The file or hunk named is not among the changes between the two snapshots. */
export class ChangeNotFoundError extends DomainError {
  constructor(what: string) {
    super('not_found', `${what} is not among the changes between these two snapshots; list them again (changes.files) and pick one there`);
    this.name = 'ChangeNotFoundError';
  }
}
