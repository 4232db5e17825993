import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ChildFrameError } from '../../src-main/node/sandbox/wasm/childFrameError';
import { parseChildFrame } from '../../src-main/node/sandbox/wasm/childFrames';
import { AgentStoppedError } from '../../src-main/node/sandbox/wasm/sandboxErrors';
import { WasmSandbox } from '../../src-main/node/sandbox/wasm/wasmSandbox';
import { tempDir } from '../helpers';
import { FixedGrants } from './fixedGrants';
import { guestWith, testStore, wat } from './guests';
import { invokeInput, LIMITS } from './harness';

describe('frames from the agent process are parsed, not trusted', () => {
  it('takes every frame of the protocol as it is', () => {
    assert.deepEqual(parseChildFrame('{"type":"log","stream":"stderr","text":"hi"}'), { type: 'log', stream: 'stderr', text: 'hi' });
    assert.deepEqual(parseChildFrame('{"type":"trap","step":"invoke","message":"unreachable","atMemoryCap":false,"memoryBytes":65536}'), {
      type: 'trap',
      step: 'invoke',
      message: 'unreachable',
      atMemoryCap: false,
      memoryBytes: 65536,
    });
  });

  it('refuses what is not JSON, or not a frame of the protocol, saying what is wrong', () => {
    const refused = (text: string) => {
      try {
        parseChildFrame(text);
      } catch (error) {
        assert.ok(error instanceof ChildFrameError, String(error));
        return error.message;
      }
      assert.fail(`${text} was taken`);
    };
    assert.match(refused('{"type":"done"'), /malformed frame \(not JSON: /);
    assert.match(refused('{"type":"log","stream":"stdout","text":42}'), /text: .*expected string/i);
    assert.match(refused('{"type":"done","step":"teardown"}'), /step: /);
    assert.match(refused('{"type":"pwn"}'), /type: /);
    assert.match(refused('{"type":"ready","extra":1}'), /extra/);
    assert.match(refused('null'), /malformed frame/);
    assert.match(refused(`{"type":"log","text":"${'x'.repeat(10_000)}"}`), /… \(10\d\d\d characters\)/, 'a long frame is quoted only in part');
  });
});

describe('an agent process that sends a malformed frame', () => {
  const dir = tempDir('bad-frames');
  let sandbox: WasmSandbox;
  let module: Uint8Array;
  before(async () => {
    sandbox = new WasmSandbox({ consent: new FixedGrants(), store: testStore(dir.path), warmProcesses: 1, childScript: join(__dirname, 'badFrameChild.ts') });
    module = await wat(guestWith('nop'));
  });
  after(() => {
    sandbox.dispose();
    dir.cleanup();
  });

  const start = (config: unknown) => sandbox.start({ agentId: 'bad-frames', sessionId: 'ses_test', workspaceRoot: dir.path, module, capabilities: [], limits: LIMITS, config });

  async function stoppedBy(config: unknown): Promise<AgentStoppedError> {
    try {
      await start(config);
    } catch (error) {
      assert.ok(error instanceof AgentStoppedError, `expected an AgentStoppedError, got ${String(error)}`);
      return error;
    }
    assert.fail('the agent started');
  }

  it('is ended with a protocol_error that says what was wrong, and the host carries on', async () => {
    const notJson = await stoppedBy({ frames: ['{"type":"log","stream":"stdout","text":"before"}', 'garbage{'] });
    assert.equal(notJson.reason, 'protocol_error');
    assert.match(notJson.message, /the agent's process sent a malformed frame \(not JSON: .*\): "garbage\{"/);

    const wrongShape = await stoppedBy({ frames: ['{"type":"done","step":42}'] });
    assert.equal(wrongShape.reason, 'protocol_error');
    assert.match(wrongShape.message, /malformed frame \(step: /);

    const unknownType = await stoppedBy({ frames: ['{"type":"call","fn":"fs_read"}'] });
    assert.equal(unknownType.reason, 'protocol_error');
    assert.match(unknownType.message, /req: /);

    const oversized = await stoppedBy({ oversized: true });
    assert.equal(oversized.reason, 'protocol_error');
    assert.match(oversized.message, /malformed frame \(2147483647 bytes, over the \d+ allowed\)/);

    // The same sandbox still runs an agent whose process behaves.
    const agent = await start({});
    const logs: string[] = [];
    agent.onLog(({ text }) => logs.push(text));
    await agent.invoke(invokeInput());
    assert.deepEqual(logs, ['fine']);
    agent.dispose();
  });

  it('mid-run: the step fails, the agent says why it stopped and its process is gone', async () => {
    const agent = await start({ invokeFrames: ['{"type":"log","stream":"stdout","text":"before"}', '{"type":"log","stream":"stdin","text":"x"}'] });
    const logs: string[] = [];
    agent.onLog(({ text }) => logs.push(text));
    await assert.rejects(agent.invoke(invokeInput()), (error: unknown) => error instanceof AgentStoppedError && error.reason === 'protocol_error' && /stream: /.test(error.message));
    assert.deepEqual(logs, ['before'], 'the frames before the bad one count');
    assert.equal(agent.whyStopped?.reason, 'protocol_error');
    assert.equal(agent.state, 'terminated');
    await waitUntilGone(agent.pid);
    agent.dispose();
  });
});

async function waitUntilGone(pid: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.fail(`process ${pid} is still running`);
}
