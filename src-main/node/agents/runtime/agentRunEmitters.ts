import { DisposableStore, Emitter, type Disposable } from '../../../../src-preload/rpc';
import type { OutputChunk } from '../../sandbox/wasm/agentHostCalls';

/**
 * What a native or model-backed agent reports while it runs: `calls` has the events the WASM agent's host calls fire
 * (output, artifact, state update), so the runtime follows every kind of agent alike; `log` is its log card's lines.
 */
export class AgentRunEmitters implements Disposable {
  private readonly owner = new DisposableStore();
  readonly output = this.owner.add(new Emitter<OutputChunk>());
  readonly artifact = this.owner.add(new Emitter<{ id: string; kind: string; path: string; previewHint: string | null }>());
  readonly state = this.owner.add(new Emitter<{ key: string; value: unknown; scope: string }>());
  readonly log = this.owner.add(new Emitter<{ stream: 'stdout' | 'stderr'; text: string }>());
  readonly calls = { onOutput: this.output.event, onArtifact: this.artifact.event, onState: this.state.event };

  dispose(): void {
    this.owner.dispose();
  }
}
