/** The environment variable that sets how long one step of an agent run may take, in seconds. */
export const STEP_TIMEOUT_ENV = 'OMNI_AGENT_STEP_TIMEOUT';

const MAX_SECONDS = 24 * 3600;

/**
 * OMNI_AGENT_STEP_TIMEOUT (whole seconds, 1 to a day) as milliseconds, or undefined for the runtime's default.
 * Anything else is refused with what was wrong, rather than quietly ignored.
 */
export function stepTimeoutFromEnv(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const raw = env[STEP_TIMEOUT_ENV];
  if (raw === undefined || raw.trim() === '') return undefined;
  const seconds = Number(raw);
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_SECONDS) {
    throw new RangeError(`${STEP_TIMEOUT_ENV} must be a whole number of seconds from 1 to ${MAX_SECONDS} (got "${raw}"); unset it for the default of 120`);
  }
  return seconds * 1000;
}
