import { CheckpointSignalError, parseCheckpointSignal, type CheckpointSignal } from './checkpointSignal';

/** What an agent's final output says about checkpoints: nothing, a valid signal, or one the host cannot act on. */
export type CheckpointInOutput = { kind: 'none' } | { kind: 'signal'; signal: CheckpointSignal } | { kind: 'invalid'; error: CheckpointSignalError };

/** A model often wraps JSON in a Markdown code fence; the fence is not part of the signal. */
function unfenced(text: string): string {
  const fenced = /^```(?:json)?[ \t]*\r?\n([\s\S]*?)\r?\n```$/.exec(text);
  return fenced ? fenced[1].trim() : text;
}

/**
 * What in the text is meant as a checkpoint signal: a JSON object whose `type` is "checkpoint" (parsed), or text that
 * says so but is not JSON (kept as text, so parsing it reports why); undefined for anything else.
 */
function meantAsCheckpoint(text: string): unknown {
  const candidate = unfenced(text.trim());
  if (!candidate.startsWith('{')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(candidate);
  } catch {
    return /"type"\s*:\s*"checkpoint"/.test(candidate) ? candidate : undefined;
  }
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'checkpoint' ? value : undefined;
}

/**
 * An agent raises a checkpoint (spec §2) by making its output the signal: the whole output, or its last chunk (so it
 * may write what it did first, then ask). An object (or broken JSON) that says `"type": "checkpoint"` is taken as meant to be one, and
 * if it does not fit the schema the error names the field, rather than it being passed on as ordinary text.
 */
export function checkpointInOutput(output: string, lastChunk?: string): CheckpointInOutput {
  const found = meantAsCheckpoint(output) ?? (lastChunk !== undefined && lastChunk !== output ? meantAsCheckpoint(lastChunk) : undefined);
  if (found === undefined) return { kind: 'none' };
  try {
    return { kind: 'signal', signal: parseCheckpointSignal(found) };
  } catch (error) {
    if (error instanceof CheckpointSignalError) return { kind: 'invalid', error };
    throw error;
  }
}
