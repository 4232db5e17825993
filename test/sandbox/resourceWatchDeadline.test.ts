// spawn_agent's timeout is one clock for the whole agent: a WASM turn's steps (start, invoke, shutdown) share it, so
// two steps that each stay under the deadline still time out together. Outside spawn_agent each step has its own.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ResourceWatch, type Overrun } from '../../src-main/node/sandbox/wasm/resourceWatch';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs two steps of `stepMs` each under a `deadlineMs` deadline and returns the overrun, if any. */
async function twoSteps(deadlineSpansSteps: boolean, deadlineMs: number, stepMs: number): Promise<Overrun | null> {
  let overrun: Overrun | null = null;
  // This test process stands in for the agent's child: idle, so only the wall clock can trip.
  const watch = new ResourceWatch(process.pid, { memBytes: 1 << 30, cpuMillicores: 1000, deadlineMs, deadlineSpansSteps, rssOverheadBytes: 1 << 40, pollMs: 5 }, (o) => (overrun = o));
  try {
    for (const step of ['start', 'invoke']) {
      watch.begin(step);
      await sleep(stepMs);
      watch.end();
      if (overrun) break;
    }
  } finally {
    watch.dispose();
  }
  return overrun;
}

test('a deadline spanning steps trips in the second step once the steps together pass it', async () => {
  const overrun = await twoSteps(true, 600, 400);
  assert.equal(overrun?.reason, 'timeout');
  assert.match(overrun!.message, /all steps together\), in invoke/);
});

test('a per-step deadline lets each step have the whole deadline', async () => {
  assert.equal(await twoSteps(false, 600, 400), null);
});

test('time paused (waiting for the user) does not count, also across steps', async () => {
  let overrun: Overrun | null = null;
  const watch = new ResourceWatch(process.pid, { memBytes: 1 << 30, cpuMillicores: 1000, deadlineMs: 600, deadlineSpansSteps: true, rssOverheadBytes: 1 << 40, pollMs: 5 }, (o) => (overrun = o));
  try {
    watch.begin('start');
    await sleep(200);
    watch.pause();
    await sleep(900);
    watch.resume();
    watch.end();
    watch.begin('invoke');
    await sleep(200);
    watch.end();
  } finally {
    watch.dispose();
  }
  assert.equal(overrun, null);
});
