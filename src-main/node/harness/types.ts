/**
 * The harness module's public types, exactly as spec/harness-continuity-and-invocation.md §3 and §4 name them
 * ("agent-spaces" there is this module, "CP" is our host). Continuity is a provider-typed key that belongs to the
 * host's session; this module never stores sessions, it only prepares invocations and runs non-interactive turns.
 */

export type ProviderDomain = 'anthropic' | 'openai';

/** Provider-native opaque string that resumes a conversation (typed by provider, untyped within it). */
export type HarnessContinuationKey = string;

export type HarnessContinuationRef = {
  provider: ProviderDomain;
  key?: HarnessContinuationKey; // absent until first successful provider turn when applicable
};

export type InteractionMode = 'interactive' | 'headless' | 'nonInteractive';
export type IoMode = 'pty' | 'pipes' | 'inherit';

export type HarnessFrontend = 'agent-sdk' | 'pi-sdk' | 'claude-code' | 'codex-cli';

export type ProcessInvocationSpec = {
  provider: ProviderDomain;
  frontend: HarnessFrontend;

  argv: string[]; // authoritative argv; CP MUST NOT shell-parse
  cwd: string;
  env: Record<string, string>;

  interactionMode: InteractionMode; // headless/interactive/nonInteractive
  ioMode: IoMode; // pty/pipes/inherit

  continuation?: HarnessContinuationRef;

  // Optional UX-only string (copy/paste)
  displayCommand?: string;
};

/**
 * What the spec calls the "space" a harness runs for. The spec leaves it open; this is the part the CLI builders
 * use today: a name for logs and instructions appended to the harness's own system prompt.
 */
export type SpaceSpec = {
  name?: string;
  instructions?: string;
};

/** Turn-scoped events (§4.1). `payload` is the harness's own event, parsed but not reinterpreted. */
export interface BaseEvent {
  ts: string;
  seq: number;
  cpSessionId: string;
  runId: string;
  continuation?: HarnessContinuationRef; // optional; set after first observed key
  payload?: unknown;
}

/** Where a non-interactive turn reports its events; the host turns them into output cards. */
export type SessionCallbacks = {
  onEvent: (event: BaseEvent) => void;
};

/** How a non-interactive turn ended. */
export type RunResult = {
  status: 'completed' | 'failed' | 'cancelled';
  finalText?: string;
  error?: { code: string; message: string };
};

export type RunTurnNonInteractiveRequest = {
  cpSessionId: string;
  runId: string;

  aspHome: string;
  spec: SpaceSpec;

  frontend: 'agent-sdk' | 'pi-sdk';
  model?: string;

  continuation?: HarnessContinuationRef;

  cwd: string;
  env?: Record<string, string>;

  prompt: string;
  attachments?: string[];

  callbacks: SessionCallbacks;
};

export type RunTurnNonInteractiveResponse = {
  continuation?: HarnessContinuationRef; // set when discovered/updated
  provider: ProviderDomain;
  frontend: 'agent-sdk' | 'pi-sdk';
  model?: string;
  result: RunResult;
};

export type BuildProcessInvocationSpecRequest = {
  cpSessionId: string;
  aspHome: string;
  spec: SpaceSpec;

  provider: ProviderDomain;
  frontend: 'claude-code' | 'codex-cli';
  model?: string;

  interactionMode: 'interactive' | 'headless';
  ioMode: 'pty' | 'inherit' | 'pipes'; // CP chooses based on hosting strategy

  continuation?: HarnessContinuationRef; // if key present, build resume args
  cwd: string;
  env?: Record<string, string>;

  // Optional: CP can request emission paths for logs/events
  artifactDir?: string;
};

export type BuildProcessInvocationSpecResponse = {
  spec: ProcessInvocationSpec;
  // Optional: materialization outputs useful for CP/UI
  warnings?: string[];
};
