/**
 * What the host may add to a BuildProcessInvocationSpecRequest (whose fields are fixed by the spec): the things a
 * CLI invocation needs that the spec's request does not carry.
 */
export type InvocationOptions = {
  /** The first prompt. Required for headless runs (a headless CLI without one would wait on stdin). */
  prompt?: string;
  /** argv[0]: the CLI's own binary (not a Node wrapper that would not forward SIGKILL). Default "claude" / "codex". */
  executable?: string;
  /**
   * The cwd the continuation's conversation was started in, as the host stored it beside the key. Claude Code
   * resumes only from there, so a different cwd is refused before spawning.
   */
  originCwd?: string;
  /** Run on the user's own ~/.claude or ~/.codex instead of the harness home. Nothing is written there. */
  useUserConfig?: boolean;
  /** The user's home (where ~/.claude lives) when useUserConfig is set; default os.homedir(). */
  userHome?: string;
  /** The uid the CLI will run as; default process.getuid(). Claude Code refuses bypass modes as root. */
  uid?: number;
  /**
   * ask (default): tools that need permission ask (in the TUI, or through the permission prompt tool headless);
   * acceptEdits: file edits are allowed without asking; bypass: nothing asks (never as root for Claude Code).
   */
  permissionMode?: 'ask' | 'acceptEdits' | 'bypass';
  /**
   * Headless Claude Code: the MCP tool that answers permission requests (e.g. "mcp__omni__permission_prompt") and
   * the --mcp-config (a file path or a JSON string) that defines its server. Without it, headless runs deny every
   * request that would prompt (fail closed).
   */
  permissionPromptTool?: { tool: string; mcpConfig: string };
  /**
   * Codex: the Responses endpoint to use (the vault's local proxy, or a mock in tests) and the env variable holding
   * its stand-in key. Written as model provider "omni" in our CODEX_HOME; without it (and without a login there)
   * the Codex TUI opens on its sign-in screen.
   */
  openaiEndpoint?: { baseUrl: string; envKey?: string };
};
