import { DomainError } from '../base/domainError';

/** Every session's branch lives under this prefix, so the user can tell (and clean up) the app's branches. */
export const BRANCH_PREFIX = 'omni/';

/** Long enough to recognise the session, short enough for a branch list. */
const MAX_SLUG = 60;

/**
 * A session name as one safe ref component: anything but letters, digits, "." "_" "-" becomes "-", so "/", "..",
 * spaces, "@{", control characters and a leading "-" (which git would read as an option) cannot reach git. A name with
 * nothing usable left becomes "session".
 */
export function branchSlug(name: string): string {
  let slug = name
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/-{2,}/g, '-')
    .slice(0, MAX_SLUG);
  // A component may not start with "." or "-", nor end with "." or ".lock".
  slug = slug.replace(/^[.-]+/, '').replace(/(\.lock)+$/i, '').replace(/[.-]+$/, '');
  return slug === '' ? 'session' : slug;
}

/**
 * Why `name` is not a branch name git accepts (the rules of `git check-ref-format --branch`), or null when it is.
 * Checked here, not by asking git, so the message can say which rule it broke.
 */
export function branchNameProblem(name: string): string | null {
  if (name === '') return 'it is empty';
  if (name.startsWith('-')) return 'it starts with "-" (git would read it as an option)';
  if (name === '@') return 'it is "@"';
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(name)) return 'it contains a space, a control character or one of ~ ^ : ? * [ \\';
  if (name.includes('..')) return 'it contains ".."';
  if (name.includes('@{')) return 'it contains "@{"';
  if (name.includes('//') || name.startsWith('/') || name.endsWith('/')) return 'it has an empty part between slashes';
  if (name.endsWith('.')) return 'it ends with "."';
  for (const part of name.split('/')) {
    if (part.startsWith('.')) return `its part "${part}" starts with "."`;
    if (part.endsWith('.lock')) return `its part "${part}" ends with ".lock"`;
  }
  if (name.length > 250) return 'it is longer than 250 characters';
  return null;
}

/** Throws invalid_input naming `field` when `name` is not a branch name git accepts. */
export function assertBranchName(name: string, field: string): void {
  const problem = branchNameProblem(name);
  if (problem) {
    throw new DomainError('invalid_input', `${field} "${name}" is not a valid git branch name: ${problem}; pick a branch from the list`, {
      issues: [{ path: field, message: `not a valid branch name: ${problem}` }],
    });
  }
}
