import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FLOOD_CHARS_PER_FRAME, FLOOD_FRAME_MS, limitFramesInFloods, noteOutput } from '../../src-renderer/ui/screen/floodFrames';

/** A window whose frames come when the test says (`frame()`), on a clock the test moves. */
function fakeWindow(clock: { now: number }) {
  let nextId = 100;
  const queued = new Map<number, FrameRequestCallback>();
  const win = {
    requestAnimationFrame(callback: FrameRequestCallback): number {
      queued.set(++nextId, callback);
      return nextId;
    },
    cancelAnimationFrame(id: number): void {
      queued.delete(id);
    },
  };
  /** The browser draws a frame: every callback asked for so far runs. */
  const frame = (): void => {
    const callbacks = [...queued.values()];
    queued.clear();
    for (const callback of callbacks) callback(clock.now);
  };
  return { win, frame, queued };
}

test('without a flood every frame asked for comes at the next frame', () => {
  const clock = { now: 1000 };
  const { win, frame } = fakeWindow(clock);
  assert.equal(limitFramesInFloods(win, () => clock.now), true);
  const ran: number[] = [];
  for (let i = 0; i < 4; i++) {
    noteOutput(500);
    win.requestAnimationFrame(() => ran.push(clock.now));
    frame();
    clock.now += 16;
  }
  assert.deepEqual(ran, [1000, 1016, 1032, 1048]);
});

test('in a flood frames come at most every FLOOD_FRAME_MS, the one asked for meanwhile included', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const clock = { now: 1000 };
  const { win, frame, queued } = fakeWindow(clock);
  limitFramesInFloods(win, () => clock.now);
  const ran: number[] = [];
  noteOutput(FLOOD_CHARS_PER_FRAME);
  win.requestAnimationFrame(() => ran.push(clock.now)); // nothing drawn lately: asked for at once
  frame();
  assert.deepEqual(ran, [1000]);

  clock.now += 16;
  noteOutput(FLOOD_CHARS_PER_FRAME);
  win.requestAnimationFrame(() => ran.push(clock.now)); // 16 ms after a frame, in a flood: held back
  const cancelled = win.requestAnimationFrame(() => ran.push(-1));
  win.cancelAnimationFrame(cancelled); // a held request can still be cancelled
  frame();
  assert.deepEqual(ran, [1000], 'no frame 16 ms after the last one');
  assert.equal(queued.size, 0);
  clock.now += FLOOD_FRAME_MS - 16;
  t.mock.timers.tick(FLOOD_FRAME_MS - 16); // 33 ms after the last frame the request goes to the browser
  frame();
  assert.deepEqual(ran, [1000, 1000 + FLOOD_FRAME_MS]);

  // The flood over (little parsed since the last frame): the next frame comes at once, however soon.
  clock.now += 5;
  noteOutput(200);
  win.requestAnimationFrame(() => ran.push(clock.now));
  frame();
  assert.deepEqual(ran, [1000, 1000 + FLOOD_FRAME_MS, 1005 + FLOOD_FRAME_MS]);
});

test('installed once per window; a frame already asked of the browser is cancelled there', () => {
  const clock = { now: 0 };
  const { win, queued } = fakeWindow(clock);
  limitFramesInFloods(win, () => clock.now);
  const wrapped = win.requestAnimationFrame;
  assert.equal(limitFramesInFloods(win, () => clock.now), true);
  assert.equal(win.requestAnimationFrame, wrapped, 'not wrapped twice');
  noteOutput(0);
  const id = win.requestAnimationFrame(() => assert.fail('cancelled'));
  assert.equal(queued.size, 1);
  win.cancelAnimationFrame(id);
  assert.equal(queued.size, 0);
});

test('a frame the browser gave out before the limit was installed can still be cancelled', () => {
  const clock = { now: 0 };
  const { win, queued } = fakeWindow(clock);
  const early = win.requestAnimationFrame(() => assert.fail('cancelled'));
  limitFramesInFloods(win, () => clock.now);
  const late = win.requestAnimationFrame(() => {});
  assert.notEqual(late, early);
  win.cancelAnimationFrame(early);
  assert.deepEqual([...queued.keys()].length, 1, 'only the late frame is left');
});
