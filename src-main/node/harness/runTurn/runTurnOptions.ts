/**
 * What runTurnNonInteractive needs beyond the spec's request (which has no field for them): cancellation, where the
 * model endpoint is, and where the Agent SDK was installed. The host fills these; a test fills them with a mock.
 */
export type RunTurnOptions = {
  /** Aborting ends the turn: the SDK's process is stopped or the stream closed, and the result says `cancelled`. */
  signal?: AbortSignal;
  /**
   * The model API the turn talks to. The host passes the credential proxy's URL and its stand-in key (what
   * `proxyEnvFor(handle)` gives), never a real key. Without it, the provider's pair in `request.env` is used
   * (ANTHROPIC_BASE_URL/ANTHROPIC_API_KEY for agent-sdk, OPENAI_BASE_URL/OPENAI_API_KEY for pi-sdk).
   */
  endpoint?: TurnEndpoint;
  /**
   * The folder of an installed @anthropic-ai/claude-agent-sdk (the one holding its package.json). Default:
   * the OMNI_AGENT_SDK_DIR environment variable. The SDK is never a dependency of the app; it is loaded at run
   * time from here.
   */
  agentSdkDir?: string;
  /**
   * Tool permissions for agent-sdk turns. Nobody is there to ask during a non-interactive turn, so `ask` denies
   * whatever would need approval (fail closed). `bypass` is downgraded to `ask` as root (Claude Code refuses it).
   */
  permissionMode?: 'ask' | 'acceptEdits' | 'bypass';
  /** Test seam for the process uid (the root check above); default process.getuid(). */
  uid?: number;
};

/** A model API: its base URL as the provider's SDKs take it, and the key to send there. */
export type TurnEndpoint = { baseUrl: string; apiKey: string };
