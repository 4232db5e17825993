import { HarnessError } from './harnessError';
import type { HarnessContinuationRef, HarnessFrontend, ProviderDomain } from './types';

/** How a frontend runs: a CLI the host spawns (invocation only) or an SDK this module drives for one turn. */
export type HarnessKind = 'cli' | 'sdk';

type HarnessEntry = { provider: ProviderDomain; kind: HarnessKind; models: string[] };

/**
 * The provider typing of spec §5.1: agent-sdk and claude-code share Anthropic's conversation store, pi-sdk and
 * codex-cli OpenAI's. `models` are the aliases each CLI documents; any full model name is passed through too.
 */
const HARNESSES: Record<HarnessFrontend, HarnessEntry> = {
  'agent-sdk': { provider: 'anthropic', kind: 'sdk', models: ['opus', 'sonnet', 'haiku'] },
  'claude-code': { provider: 'anthropic', kind: 'cli', models: ['opus', 'sonnet', 'haiku'] },
  'pi-sdk': { provider: 'openai', kind: 'sdk', models: ['gpt-5', 'gpt-5-codex'] },
  'codex-cli': { provider: 'openai', kind: 'cli', models: ['gpt-5', 'gpt-5-codex'] },
};

export const HARNESS_FRONTENDS = Object.keys(HARNESSES) as HarnessFrontend[];

export type HarnessCapability = { provider: ProviderDomain; frontends: HarnessFrontend[]; models: string[] };

/** `getHarnessCapabilities()` of spec §7 ASP-2: one entry per provider with its frontends and model aliases. */
export function getHarnessCapabilities(): HarnessCapability[] {
  const byProvider = new Map<ProviderDomain, HarnessCapability>();
  for (const frontend of HARNESS_FRONTENDS) {
    const { provider, models } = HARNESSES[frontend];
    const entry = byProvider.get(provider) ?? { provider, frontends: [], models: [] };
    entry.frontends.push(frontend);
    for (const model of models) if (!entry.models.includes(model)) entry.models.push(model);
    byProvider.set(provider, entry);
  }
  return [...byProvider.values()];
}

export function isHarnessFrontend(value: unknown): value is HarnessFrontend {
  return typeof value === 'string' && Object.hasOwn(HARNESSES, value);
}

/** The provider a frontend belongs to; an unknown name is a typed error listing the known ones. */
export function providerOf(frontend: string): ProviderDomain {
  if (!isHarnessFrontend(frontend)) {
    throw new HarnessError('HARNESS_UNKNOWN_FRONTEND', `unknown harness frontend "${frontend}"; use one of ${HARNESS_FRONTENDS.join(', ')}`);
  }
  return HARNESSES[frontend].provider;
}

export function harnessKind(frontend: HarnessFrontend): HarnessKind {
  return HARNESSES[frontend].kind;
}

export function isProviderDomain(value: unknown): value is ProviderDomain {
  return value === 'anthropic' || value === 'openai';
}

/**
 * Refuses to reuse a continuation across provider domains (spec §5.1): an Anthropic conversation id means nothing
 * to OpenAI and vice versa, and handing it over would silently start a fresh conversation.
 */
export function assertContinuationProvider(frontend: HarnessFrontend, continuation: HarnessContinuationRef | undefined): void {
  if (continuation === undefined) return;
  if (!isProviderDomain(continuation.provider)) {
    throw new HarnessError('HARNESS_BAD_REQUEST', `continuation.provider must be "anthropic" or "openai", not ${JSON.stringify(continuation.provider)}`);
  }
  const provider = providerOf(frontend);
  if (continuation.provider !== provider) {
    const fits = HARNESS_FRONTENDS.filter((f) => HARNESSES[f].provider === continuation.provider).join(' or ');
    throw new HarnessError(
      'HARNESS_PROVIDER_MISMATCH',
      `this session's continuation is ${continuation.provider}-typed; it cannot be resumed with ${frontend} (${provider}). Resume it with ${fits}, or start a new session without the continuation.`,
    );
  }
}
