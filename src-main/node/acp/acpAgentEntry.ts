/**
 * One agent the host can talk to over the Agent Client Protocol: a command that, once started, speaks ACP
 * (newline-delimited JSON-RPC) on its stdin/stdout. The registry (acpAgentRegistry.ts) holds the built-in entries and
 * the user's own ones from `<home>/acp-agents.json`.
 */
export interface AcpAgentEntry {
  /** Stable id, e.g. `claude`, `codex`, `gemini`, or the user's own. */
  id: string;
  /** What the UI shows. */
  name: string;
  /** The program to run; a bare name is looked up on PATH (after the installed adapters' bin folders). */
  command: string;
  args: string[];
  /** Extra environment for the agent process (merged over the launch's env). */
  env: Record<string, string>;
  /** `builtin` entries ship with the host; `user` entries come from `<home>/acp-agents.json`. */
  source: 'builtin' | 'user';
  /** For built-ins installable in-app: the npm package and its pinned version. */
  install?: { package: string; version: string; bin: string };
}
