import { formatIssue, type ManifestIssue } from './manifestIssue';

/**
 * Thrown where a caller needs a usable manifest and got none (the runtime starting an agent): carries every error,
 * so the message names them all.
 */
export class ManifestError extends Error {
  readonly issues: readonly ManifestIssue[];

  constructor(
    readonly file: string,
    issues: readonly ManifestIssue[],
  ) {
    const errors = issues.filter((issue) => issue.severity === 'error');
    super(`${file} is not a valid agent manifest (${errors.length} ${errors.length === 1 ? 'error' : 'errors'}):\n${errors.map((e) => `  ${formatIssue(e)}`).join('\n')}`);
    this.name = 'ManifestError';
    this.issues = issues;
  }
}
