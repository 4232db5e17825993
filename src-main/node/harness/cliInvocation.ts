import type { InvocationOptions } from './invocationOptions';
import type { BuildProcessInvocationSpecRequest, HarnessContinuationRef } from './types';

/** What the entry point hands a CLI builder once the request is checked: cwd absolute and existing. */
export type CliInvocationInput = {
  request: BuildProcessInvocationSpecRequest;
  options: InvocationOptions;
  cwd: string;
  /** The caller's env delta with terminal-host variables already removed. */
  env: Record<string, string>;
  warnings: string[];
};

/** The CLI-specific part of a ProcessInvocationSpec. */
export type CliInvocation = {
  argv: string[];
  env: Record<string, string>;
  continuation?: HarnessContinuationRef;
};
