import type { SessionConfigOption, SessionModeState, SessionNotification } from '@agentclientprotocol/sdk';
import type { AcpConversation } from '../../../src-preload/contract/acp';

/** The conversation's modes as the agent announced them. */
export function modesOf(modes: SessionModeState | null | undefined): AcpConversation['modes'] {
  if (!modes) return null;
  return { currentModeId: modes.currentModeId, available: modes.availableModes.map((m) => ({ id: m.id, name: m.name, description: m.description ?? null })) };
}

/** The agent's model choice: a select config option of category `model` (or id `model`). */
export function modelsOf(options: SessionConfigOption[] | null | undefined): AcpConversation['models'] {
  const option = options?.find((o) => (o as { category?: string }).category === 'model' || o.id === 'model') as
    | (SessionConfigOption & { type?: string; currentValue?: unknown; options?: unknown[] })
    | undefined;
  if (!option || option.type !== 'select' || !Array.isArray(option.options)) return null;
  const flat: { value: string; name: string }[] = [];
  for (const o of option.options as Record<string, unknown>[]) {
    if (typeof o.value === 'string') flat.push({ value: o.value, name: String(o.name ?? o.value) });
    else if (Array.isArray(o.options)) for (const inner of o.options as Record<string, unknown>[]) if (typeof inner.value === 'string') flat.push({ value: inner.value, name: String(inner.name ?? inner.value) });
  }
  return { configId: option.id, current: String(option.currentValue ?? ''), available: flat };
}

/**
 * What a session/update changes on the conversation's card header (mode, usage and cost, model choice), or null.
 * Malformed fields are ignored: the update is still logged as the agent sent it.
 */
export function stateChangeOf(record: AcpConversation, update: SessionNotification['update']): Partial<AcpConversation> | null {
  const fields = update as SessionNotification['update'] & Record<string, unknown>;
  if (fields.sessionUpdate === 'current_mode_update' && record.modes) {
    return { modes: { ...record.modes, currentModeId: String(fields.currentModeId) } };
  }
  if (fields.sessionUpdate === 'usage_update' && typeof fields.used === 'number' && typeof fields.size === 'number') {
    const cost = fields.cost as { amount?: unknown; currency?: unknown } | null | undefined;
    const known = cost && typeof cost.amount === 'number' && typeof cost.currency === 'string' ? { amount: cost.amount, currency: cost.currency } : null;
    return { usage: { used: fields.used, size: fields.size, cost: known } };
  }
  if (fields.sessionUpdate === 'config_option_update') {
    const models = modelsOf(fields.configOptions as SessionConfigOption[] | undefined);
    if (models) return { models };
  }
  return null;
}

/**
 * A stored record of a conversation no agent runs for: a host that ended without stopping it (a crash, a kill) left
 * its last status (ready, prompting) in the log, which would offer a prompt nobody can answer instead of Resume.
 */
export function notRunning(stored: AcpConversation): AcpConversation {
  if (stored.status === 'stopped' || stored.status === 'failed') return stored;
  return { ...stored, status: 'stopped', statusReason: 'the host ended while the agent ran' };
}
