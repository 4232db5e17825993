// The harness module ("agent-spaces" in spec/harness-continuity-and-invocation.md): provider-typed continuity and
// CLI invocation specs. The host (CP) spawns the processes; this module only prepares them.
export * from './types';
export { HarnessError, type HarnessErrorCode } from './harnessError';
export { getHarnessCapabilities, providerOf, assertContinuationProvider, isHarnessFrontend, HARNESS_FRONTENDS, type HarnessCapability } from './harnessRegistry';
export { buildProcessInvocationSpec } from './buildProcessInvocationSpec';
export type { InvocationOptions } from './invocationOptions';
export { harnessStdio, type HarnessStdio } from './harnessStdio';
export { isUuid } from './continuationKey';
export { runTurnNonInteractive } from './runTurn/runTurnNonInteractive';
export type { RunTurnOptions, TurnEndpoint } from './runTurn/runTurnOptions';
export { AGENT_SDK_PACKAGE, AGENT_SDK_VERSION } from './runTurn/loadAgentSdk';
export { DEFAULT_OPENAI_MODEL } from './runTurn/responsesTurn';
