import { HarnessError } from './harnessError';
import type { HarnessFrontend } from './types';

/** 8-4-4-4-12 hex digits, any version (Claude Code uses v4, Codex thread ids are v7). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/**
 * Both CLIs take a name as well as an id where a resume id goes, and neither says when the "name" matched nothing:
 * Codex (`exec resume <id>`: "UUIDs take precedence if it parses", else a thread name) starts a NEW thread, Claude
 * Code (`--resume <value>`) opens its session picker. A continuation key is always the UUID the CLI reported, so
 * anything else is refused here instead of silently losing the conversation.
 */
export function assertResumableKey(frontend: HarnessFrontend, key: string): void {
  if (isUuid(key)) return;
  const what = frontend === 'codex-cli' ? 'a Codex thread id' : 'a Claude Code session id';
  const consequence =
    frontend === 'codex-cli'
      ? 'Codex would treat it as a thread name and silently start a NEW thread'
      : 'Claude Code would treat it as a search term and open its session picker';
  throw new HarnessError(
    'HARNESS_BAD_CONTINUATION_KEY',
    `continuation key ${JSON.stringify(key)} is not ${what} (a UUID like 0199a213-81c0-7800-8aa1-bbab2a035a53); ${consequence}. Use the id the CLI reported for this session, or start a new session without a key.`,
  );
}
