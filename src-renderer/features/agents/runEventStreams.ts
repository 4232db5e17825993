import { contract, type AgentRunEvent } from '../../../src-preload/contract';
import type { Subscription } from '../../../src-preload/rpc/rpcClient';
import type { OmniClient } from '../../bridge/connectionStore';
import { useAgents } from './agentsStore';

/** Output credit in characters: enough for a fast agent, small enough that a flood waits for the UI. */
const EVENT_CREDIT = 1_000_000;

interface Followed {
  client: OmniClient;
  subscription: Subscription;
}

/**
 * One `agent.events` subscription per run, owned here rather than by a component: hiding a session or switching to
 * another view must not drop (and later re-fetch) a run's output. A new connection replays each unfinished run from
 * its start, so the run's cards are cleared first and rebuilt from the replay.
 */
const followed = new Map<string, Followed>();

/**
 * Events are applied to the store at most once per MIN_FLUSH_INTERVAL_MS, on an animation frame, so a flood of small
 * chunks is one render, not thousands.
 * `replay` marks a batch that begins a new subscription's replay: the run's old events are dropped just before it
 * (not at subscribe time, so a run the host has forgotten keeps what it showed).
 */
const pending = new Map<string, { replay: boolean; events: AgentRunEvent[]; weight: number; subscription: Subscription }>();
const weightOf = contract['agent.events'].weight;
let flushScheduled = false;
let fallbackTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * About 30 updates a second at most. A log flooding at 10,000 lines a second shows all-new rows on every update, and
 * each update costs the page style, layout, paint and raster whatever its size: at every frame that leaves too
 * little of a small machine for the frames themselves (docs/performance.md#agent-cards).
 * Every other frame keeps the page at 60 fps and adds at most a frame to the output's latency.
 */
const MIN_FLUSH_INTERVAL_MS = 32;
/** Frames do not come exactly 16.7 ms apart: a frame this close to the interval counts as reaching it. */
const FRAME_SLACK_MS = 4;
let lastFlushAt = -Infinity;

function onFrame(now: number): void {
  if (!flushScheduled) return;
  if (now - lastFlushAt < MIN_FLUSH_INTERVAL_MS - FRAME_SLACK_MS) {
    requestAnimationFrame(onFrame);
    return;
  }
  lastFlushAt = now;
  flush();
}

function flush(): void {
  flushScheduled = false;
  // The frame came: the fallback would only apply the next frame's events between frames, a second render per frame.
  clearTimeout(fallbackTimer);
  fallbackTimer = undefined;
  const batches = [...pending];
  pending.clear();
  const { applyEvents, resetRun } = useAgents.getState();
  for (const [runId, batch] of batches) {
    if (batch.replay) resetRun(runId);
    applyEvents(runId, batch.events);
    // Credit goes back only once the output is in the store: a flooding agent waits for the UI's frames.
    batch.subscription.ack(batch.weight);
  }
}

function scheduleFlush(): void {
  if (flushScheduled) return;
  flushScheduled = true;
  requestAnimationFrame(onFrame);
  // A hidden or minimised window gets no animation frames: the timer keeps output (and credit, so the agent) moving.
  fallbackTimer = setTimeout(flush, 100);
}

export function followRun(client: OmniClient, runId: string): void {
  const run = useAgents.getState().runs[runId];
  if (!run || run.complete) return;
  const current = followed.get(runId);
  if (current && current.client === client) return;
  current?.subscription.dispose();
  pending.delete(runId);
  let replaying = true;
  const entry: Followed = {
    client,
    subscription: client.subscribe(
      'agent.events',
      { runId },
      {
        onItem(event) {
          const queue = pending.get(runId);
          if (queue) {
            queue.events.push(event);
            queue.weight += weightOf(event);
          } else {
            pending.set(runId, { replay: replaying, events: [event], weight: weightOf(event), subscription: entry.subscription });
          }
          replaying = false;
          scheduleFlush();
        },
        onEnd(error) {
          // Ended (the run is over) or the connection dropped: the next client follows again if it is unfinished.
          if (followed.get(runId) === entry) followed.delete(runId);
          if (error && error.code !== 'CLOSED') {
            flush();
            useAgents.getState().markUnavailable(runId, `the host cannot show this run any more: ${error.message}`);
          }
        },
      },
      { credit: EVENT_CREDIT, manualAck: true },
    ),
  };
  followed.set(runId, entry);
}
