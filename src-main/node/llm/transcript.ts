/**
 * A model conversation in the host's own terms, turned into each API's shape by its client: what the user said, what
 * the model answered (text and tool calls), and what the tools gave back.
 */
export type TranscriptItem =
  | { kind: 'user'; text: string }
  | { kind: 'assistant'; text: string; toolCalls: ToolCall[] }
  | { kind: 'tool_result'; callId: string; output: string; isError: boolean };

/** A tool the model asked to run, its input parsed from the API's JSON. */
export interface ToolCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
}

/** A tool offered to the model: its name, what it does, and its input as JSON Schema. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** The JSON a model sent as a tool's input; anything but an object becomes {} (the tool then reports what is missing). */
export function parseToolInput(json: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(json || '{}');
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
