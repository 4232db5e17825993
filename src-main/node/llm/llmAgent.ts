import { DisposableStore, type Disposable } from '../../../src-preload/rpc';
import { AgentRunEmitters } from '../agents/runtime/agentRunEmitters';
import { describeUserInput } from '../agents/runtime/agentTurn';
import { PausableDeadline } from '../agents/runtime/pausableDeadline';
import type { JsonValue } from '../goal/metaShell/sessionState';
import { AgentStoppedError } from '../sandbox/wasm/sandboxErrors';
import type { ModelClient, ModelEndpoint, ModelUsage } from './modelClient';
import type { ResolvedModel } from './modelConfig';
import type { TranscriptItem } from './transcript';
import type { WorkspaceTools } from './workspaceTools';

export interface LlmAgentOptions {
  client: ModelClient;
  /** The credential proxy's URL and the dummy key for the agent's handle. */
  endpoint: ModelEndpoint;
  provider: string;
  model: ResolvedModel;
  /** The agent's own system prompt, for a run that brings none (a start from the Agents view). */
  defaultSystemPrompt: string;
  /** Wall-clock time the turn may take, not counting time suspended. */
  deadlineMs: number;
  /** The provider's usage of each call (input + output tokens), reported as each call ends. */
  onUsage: (usage: ModelUsage) => void;
  /** Workspace tools the model may call (the definition's `tools`); null: text only. */
  tools: WorkspaceTools | null;
}

/** Model calls one turn may make with tools before the host stops and keeps what the model said. */
export const MAX_TOOL_ROUNDS = 12;

/** The input event's fields this agent reads: the prompt, and spawn_agent's prompts field by field when present. */
interface TurnInput {
  prompt?: unknown;
  spawn?: { system_prompt?: unknown; user_message?: unknown; resume_data?: { user_input?: JsonValue } | null };
}

/**
 * A model-backed agent: no program of its own; the host's client for its provider API calls the model through the
 * credential proxy (it only ever holds the dummy key) and streams the text into the run's `main` card as it arrives,
 * on the same callbacks WASM and native agents use, so the runtime follows all three alike. One input per run.
 */
export class LlmAgent implements Disposable {
  private readonly owner = new DisposableStore();
  private readonly emit = this.owner.add(new AgentRunEmitters());
  readonly calls = this.emit.calls;
  readonly onLog = this.emit.log.event;
  private readonly abort = new AbortController();
  private stopped: AgentStoppedError | null = null;
  private invoked = false;
  private readonly deadline: PausableDeadline;
  /** Set while suspended: the stream is not read on until it resolves. */
  private paused: { promise: Promise<void>; release: () => void } | null = null;

  constructor(private readonly o: LlmAgentOptions) {
    const limitS = Math.round(o.deadlineMs / 1000);
    this.deadline = new PausableDeadline(o.deadlineMs, () =>
      this.stop(new AgentStoppedError('timeout', `the model's answer took longer than the deadline of ${limitS} s`, 'ask for less, or give it a longer timeout')),
    );
  }

  /** Calls the model with the turn's prompts; resolves once the whole answer has streamed in. */
  async invoke(input: Record<string, unknown>): Promise<void> {
    if (this.invoked) throw new Error('a model-backed agent takes one input per run');
    this.invoked = true;
    const { systemPrompt, userMessage } = this.promptsOf(input as TurnInput);
    const { model } = this.o;
    this.log(`model ${model.model} (${model.hint}, from ${model.source}) over ${this.o.client.api}, at most ${model.maxTokens} tokens`);
    this.deadline.resume();
    const tools = this.o.tools;
    const transcript: TranscriptItem[] = [{ kind: 'user', text: userMessage }];
    let wrote = false;
    try {
      for (let round = 0; ; round++) {
        const offered = tools ? tools.specs() : [];
        let separated = !wrote;
        const result = await this.o.client.stream(
          { endpoint: this.o.endpoint, provider: this.o.provider, model: model.model, systemPrompt, transcript, tools: offered, maxTokens: model.maxTokens, signal: this.abort.signal },
          async (delta) => {
            if (this.paused) await this.paused.promise;
            if (this.stopped) throw this.stopped;
            // Text of a later round starts a paragraph of its own on the card.
            const data = separated ? delta : `\n\n${delta}`;
            separated = true;
            wrote = true;
            this.emit.output.fire({ contentType: 'text/markdown', data, chunkId: 'main' });
          },
        );
        this.reportUsage(result.usage, result.stopReason);
        if (result.toolCalls.length === 0 || !tools) return;
        if (round + 1 >= MAX_TOOL_ROUNDS) {
          this.log(`stopped after ${MAX_TOOL_ROUNDS} rounds of tool calls; the answer is what the model said so far`);
          return;
        }
        transcript.push({ kind: 'assistant', text: result.text, toolCalls: result.toolCalls });
        for (const call of result.toolCalls) {
          if (this.stopped) throw this.stopped;
          const outcome = await tools.run(call);
          this.log(outcome.summary);
          transcript.push({ kind: 'tool_result', callId: call.id, output: outcome.output, isError: outcome.isError });
        }
      }
    } catch (error) {
      throw this.stopped ?? error;
    } finally {
      this.deadline.pause();
    }
  }

  async shutdown(): Promise<void> {}

  private reportUsage(usage: ModelUsage | null, stopReason: string | null): void {
    const { model } = this.o;
    if (usage) {
      this.o.onUsage(usage);
      this.log(`tokens: ${usage.inputTokens} in, ${usage.outputTokens} out (as ${this.o.provider} counted them)${stopReason ? `; stop: ${stopReason}` : ''}`);
    } else {
      this.log(`${this.o.provider} reported no token usage for this answer; none counted`);
    }
    if (stopReason === 'max_tokens' || stopReason === 'length' || stopReason === 'max_output_tokens') {
      this.log(`the answer was cut at max_tokens (${model.maxTokens}): ask for more tokens for a longer answer`);
    }
  }

  suspend(): void {
    if (this.paused || this.stopped) return;
    let release = () => {};
    const promise = new Promise<void>((resolve) => (release = resolve));
    this.paused = { promise, release };
    this.deadline.pause();
  }

  resume(): void {
    if (!this.paused || this.stopped) return;
    const { release } = this.paused;
    this.paused = null;
    release();
    this.deadline.resume();
  }

  kill(message = 'the agent was stopped by the host'): void {
    this.stop(new AgentStoppedError('killed', message, ''));
  }

  dispose(): void {
    this.kill('the agent was disposed');
    this.o.tools?.dispose();
    this.owner.dispose();
  }

  private promptsOf(input: TurnInput): { systemPrompt: string; userMessage: string } {
    const spawn = input.spawn;
    if (spawn && typeof spawn.user_message === 'string') {
      const system = typeof spawn.system_prompt === 'string' && spawn.system_prompt.trim() !== '' ? spawn.system_prompt : this.o.defaultSystemPrompt;
      const reply = spawn.resume_data && spawn.resume_data.user_input !== undefined ? `\n\nUser replied: ${describeUserInput(spawn.resume_data.user_input)}` : '';
      return { systemPrompt: system, userMessage: `${spawn.user_message}${reply}` };
    }
    return { systemPrompt: this.o.defaultSystemPrompt, userMessage: typeof input.prompt === 'string' ? input.prompt : '' };
  }

  private stop(error: AgentStoppedError): void {
    if (this.stopped) return;
    this.stopped = error;
    this.deadline.end();
    this.abort.abort(error);
    if (this.paused) this.paused.release();
  }

  private log(text: string): void {
    this.emit.log.fire({ stream: 'stderr', text });
  }
}
