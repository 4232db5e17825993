/**
 * Why the native sandbox refused to start a run. It fails closed: when it cannot isolate a command it says so and
 * runs nothing, so a caller never falls back to an unsandboxed run without deciding to.
 */
export type UnavailableReason = 'bwrap_missing' | 'userns_unavailable' | 'unsupported_platform' | 'overlay_unavailable' | 'socat_missing';

export class NativeSandboxUnavailableError extends Error {
  readonly code = 'sandbox_unavailable';

  constructor(
    readonly reason: UnavailableReason,
    message: string,
    readonly hint: string,
  ) {
    super(`native sandbox unavailable: ${message} — ${hint}`);
    this.name = 'NativeSandboxUnavailableError';
  }
}

/** A launch policy that cannot be honoured as given (a relative path, a cwd outside the workspace, a bad limit). */
export class NativeSandboxPolicyError extends Error {
  readonly code = 'bad_policy';

  constructor(
    readonly field: string,
    message: string,
    readonly hint: string,
  ) {
    super(`sandbox policy: ${field}: ${message} (${hint})`);
    this.name = 'NativeSandboxPolicyError';
  }
}

/** A staged run's writes could not be committed into the workspace (nothing was staged, or a file operation failed). */
export class StagedCommitError extends Error {
  readonly code = 'commit_failed';

  constructor(message: string) {
    super(`the run's staged writes were not committed: ${message}`);
    this.name = 'StagedCommitError';
  }
}

/** A staged run reached its staged-writes limit (resources.stagedWriteBytes): its writes are dropped, never committed. */
export class DiskQuotaError extends Error {
  readonly code = 'disk_quota';

  constructor(
    readonly limitBytes: number,
    message: string,
  ) {
    super(message);
    this.name = 'DiskQuotaError';
  }
}
