// The hooks of the areas that run agents, on the real host: a WASM agent run is a turn (its writes between the
// snapshot before it starts and the one after it ends), while the user's own shell run from the Runs form is not.
// (A conversation prompt and an agent-requested shell run are in changesProof.test.ts.)
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { AgentRunEvent, ChangeTurn, LiveListFrame } from '../../src-preload/contract';
import { tempDir, waitFor } from '../helpers';
import { CONNECTION, openAcpTestHost, sinkOf } from '../acp/acpTestHost';

test("an agent run is a turn with the files it wrote; the user's own shell run is not a turn", { timeout: 60_000 }, async (t) => {
  assert.ok(existsSync(join(import.meta.dirname, '../../assets/agents/scaffolder/agent.wasm')), 'the bundled agents are not built: run `npm run build`');
  const home = tempDir('changes-hooks-home');
  const ws = tempDir('changes-hooks-ws');
  const host = await openAcpTestHost({ home: home.path, keychain: 'off' }, ws.path);
  t.after(async () => {
    await host.dispose();
    home.cleanup();
    ws.cleanup();
  });
  host.answer = () => ({ kind: 'allow_for', minutes: 10 });
  const h = host.services.handlers;
  const turns = new Map<string, ChangeTurn>();
  const watch = h['changes.turns'](
    { sessionId: host.sessionId },
    sinkOf<LiveListFrame<ChangeTurn>>((frame) => {
      if (frame.kind === 'snapshot') for (const turn of frame.items) turns.set(turn.id, turn);
      if (frame.kind === 'upsert') turns.set(frame.item.id, frame.item);
    }),
    CONNECTION,
  );
  t.after(() => watch?.dispose());

  const run = await h['agent.start']({ sessionId: host.sessionId, agent: 'scaffolder', prompt: 'scaffold demo-lib' }, CONNECTION);
  const ended = await new Promise<AgentRunEvent>((resolve) => {
    h['agent.events']({ runId: run.id }, sinkOf<AgentRunEvent>((event) => event.kind === 'ended' && resolve(event)), CONNECTION);
  });
  assert.ok(ended.kind === 'ended' && ended.run.outcome === 'completed', JSON.stringify(ended));
  assert.match(readFileSync(join(ws.path, 'demo-lib', 'src', 'index.ts'), 'utf8'), /export function hello/);
  const turn = await waitFor(() => [...turns.values()].find((x) => x.source.kind === 'agent_run' && x.source.id === run.id && x.endedAt !== null), 'the run turn to end');
  assert.equal(turn.agent, 'scaffolder');
  assert.equal(turn.title, 'scaffold demo-lib');
  const { files } = await h['changes.files']({ turnId: turn.id }, CONNECTION);
  assert.ok(files.length >= 2 && files.every((file) => file.status === 'added' && file.path.startsWith('demo-lib/')), JSON.stringify(files));
  assert.ok(files.some((file) => file.path === 'demo-lib/src/index.ts'));
  assert.equal(turn.filesChanged, files.length);

  const before = turns.size;
  const ran = await h['exec.shell']({ command: 'touch mine.txt', session_id: host.sessionId }, CONNECTION);
  assert.equal(ran.action, 'run');
  assert.ok(existsSync(join(ws.path, 'mine.txt')));
  assert.equal(turns.size, before, "the user's own run is not an agent's turn");
  assert.ok(![...turns.values()].some((x) => x.source.kind === 'shell_run'));
});
