/**
 * How long a harness CLI gets, once told to end (SIGHUP when its card closes or its run is stopped, SIGTERM at a host
 * stop), before SIGKILL. Claude Code writes the turn it has just shown to its transcript as it exits; killed before
 * that, the turn is lost and Resume finds no conversation. Waiting ends as soon as the CLI is gone.
 */
export const CLI_HANGUP_GRACE_MS = 5000;
