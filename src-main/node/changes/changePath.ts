import { DomainError } from '../base/domainError';

/**
 * A path as a review names it: relative to the workspace, '/'-separated, inside it. Refused before anything reads
 * the store or touches the disk, so a request can never name a file outside the workspace (`../x`, `/etc/passwd`).
 */
export function reviewPath(path: string): string {
  const problem =
    path.includes('\0') ? 'holds a NUL character'
    : path.startsWith('/') || /^[A-Za-z]:/.test(path) || path.startsWith('\\') ? 'is absolute'
    : path.split(/[\\/]/).some((part) => part === '..') ? 'climbs out with ".."'
    : path.split('/').some((part) => part === '' || part === '.') ? 'has an empty or "." segment'
    : null;
  if (problem) {
    throw new DomainError('invalid_input', `path "${path}" ${problem}: give the path relative to the workspace, as changes.files lists it`, {
      issues: [{ path: 'path', message: `${problem}; use the path changes.files lists` }],
    });
  }
  return path;
}
