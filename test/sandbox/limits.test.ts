import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { AgentStoppedError } from '../../src-main/node/sandbox/wasm/sandboxErrors';
import { readProcessUsage } from '../../src-main/node/sandbox/wasm/procStat';
import { callingGuest, guestWith } from './guests';
import { invokeInput, sandboxHarness } from './harness';

const INFINITE_LOOP = '(loop $forever (br $forever))';
/** Grows memory 1 MiB at a time; when growth is refused (at the cap) it traps, as a real allocator's OOM abort does. */
const MEMORY_BOMB = `(loop $more
  (if (i32.eq (memory.grow (i32.const 16)) (i32.const -1)) (then unreachable))
  (br $more))`;

async function stopped(work: Promise<unknown>): Promise<AgentStoppedError> {
  try {
    await work;
  } catch (error) {
    assert.ok(error instanceof AgentStoppedError, `expected AgentStoppedError, got ${String(error)}`);
    return error;
  }
  assert.fail('the agent was not stopped');
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('hostile agents are stopped at their limits, with a typed reason', () => {
  let h: ReturnType<typeof sandboxHarness>;
  before(() => (h = sandboxHarness({ warmProcesses: 2 })));
  after(() => h.cleanup());

  it('kills an infinite loop at its deadline while the host, and another agent, carry on', async () => {
    const { agent: looping } = await h.run(guestWith(INFINITE_LOOP), [], h.dir, { deadlineMs: 1500 });
    const stops: string[] = [];
    looping.onDidStop((s) => stops.push(s.reason));
    const loop = stopped(looping.invoke(invokeInput()));

    // While the guest spins in its own process, this process keeps serving: another agent starts and answers.
    const { agent: other } = await h.run(callingGuest([{ fn: 'output', req: { content_type: 'text/plain', data: 'still here' } }]), [], h.dir);
    const seen: string[] = [];
    other.calls.onOutput((c) => seen.push(c.data));
    await other.invoke(invokeInput());
    assert.deepEqual(seen, ['still here']);
    assert.equal(looping.state, 'running', 'the loop was still running while the other agent answered');

    const error = await loop;
    assert.equal(error.reason, 'timeout');
    assert.match(error.message, /1500 ms deadline/);
    assert.deepEqual(stops, ['timeout']);
    assert.equal(looping.state, 'terminated');
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(alive(looping.pid), false, 'the process is gone');
    other.kill();
  });

  it('stops a loop that overspends its CPU budget (125m over an 8 s deadline = 1 s of CPU) before the deadline', async () => {
    const { agent } = await h.run(guestWith(INFINITE_LOOP), [], h.dir, { deadlineMs: 8000, cpuMillicores: 125 });
    const error = await stopped(agent.invoke(invokeInput()));
    assert.equal(error.reason, 'cpu_budget');
    assert.match(error.message, /budget of 1000 ms \(resources\.cpu 125m/);
  });

  it('contains a memory bomb at the quota (memory.grow fails there) and reports memory_limit', async () => {
    const { agent } = await h.run(guestWith(MEMORY_BOMB), [], h.dir, { memBytes: 64 * 1024 * 1024 });
    const error = await stopped(agent.invoke(invokeInput()));
    assert.equal(error.reason, 'memory_limit');
    assert.match(error.message, /of its quota of 67108864 bytes \(resources\.mem\)/);
  });

  it('contains a memory bomb on an imported memory too', async () => {
    const text = guestWith(MEMORY_BOMB).replace('(memory (export "memory") 2)', '(import "omni" "memory" (memory 2))');
    const { agent } = await h.run(text, [], h.dir, { memBytes: 32 * 1024 * 1024 });
    assert.equal((await stopped(agent.invoke(invokeInput()))).reason, 'memory_limit');
  });

  it("kills an agent whose process grows past its resident memory limit", async () => {
    // A bomb that touches every page it grows, with a quota larger than the RSS allowance: the RSS watch ends it.
    const touching = `(loop $more
      (if (i32.eq (memory.grow (i32.const 16)) (i32.const -1)) (then unreachable))
      (memory.fill (i32.shl (i32.sub (memory.size) (i32.const 16)) (i32.const 16)) (i32.const 1) (i32.const 1048576))
      (br $more))`;
    const { agent } = await h.run(guestWith(touching), [], h.dir, { memBytes: 1024 * 1024 * 1024, rssOverheadBytes: -768 * 1024 * 1024 });
    const error = await stopped(agent.invoke(invokeInput()));
    assert.equal(error.reason, 'memory_limit');
    assert.match(error.message, /agent's process used \d+ bytes of memory/);
  });

  it('suspends (SIGSTOP: no CPU used, the deadline clock stops) and resumes', async () => {
    const { agent } = await h.run(guestWith(INFINITE_LOOP), [], h.dir, { deadlineMs: 1500 });
    const run = stopped(agent.invoke(invokeInput()));
    agent.suspend();
    assert.equal(agent.state, 'suspended');
    const cpuBefore = readProcessUsage(agent.pid)!.cpuMs;
    await new Promise((r) => setTimeout(r, 2000));
    assert.equal(agent.state, 'suspended', 'not killed for time spent suspended');
    assert.ok(readProcessUsage(agent.pid)!.cpuMs - cpuBefore <= 20, 'a suspended agent uses no CPU');
    agent.resume();
    assert.equal(agent.state, 'running');
    assert.equal((await run).reason, 'timeout');
  });
});

describe('an agent process never outlives its host', () => {
  it('ends a looping agent whose host process died', async () => {
    // A separate host process starts a looping agent, reports its pid and is then killed with SIGKILL.
    const { spawn } = await import('node:child_process');
    const { join } = await import('node:path');
    const host = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'orphanHost.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });
    let dir = '';
    const pid = await new Promise<number>((resolve, reject) => {
      host.stdout.on('data', (chunk: Buffer) => {
        const match = /agent pid (\d+) dir (\S+)/.exec(chunk.toString());
        if (!match) return;
        dir = match[2];
        resolve(Number(match[1]));
      });
      host.on('exit', () => reject(new Error('the host exited before its agent ran')));
    });
    assert.equal(alive(pid), true);
    host.kill('SIGKILL');
    const deadline = Date.now() + 5000;
    while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.equal(alive(pid), false, 'the orphaned agent process ended by itself');
    rmSync(dir, { recursive: true, force: true });
  });
});
