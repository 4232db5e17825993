// Agent output cards end to end, through the real host and the production renderer build, in a Chromium started
// directly (no Playwright: its tracing slows WebSocket streams several times over; bench/lib/chromium.mjs):
//   1. Flood: a WASM agent emits log chunks at 10,000/s for a few seconds into one run card. Every chunk carries
//      its number and the wall-clock ms it was emitted; the page records, with a MutationObserver, when the card's
//      line count changed (performance.timeOrigin + now, the same clock), and every animation frame. A chunk has
//      reached the DOM when the card's line count first covers it. Goals (issue 4): p95 < 100 ms, ≥ 50 fps.
//   2. A card with a million lines: time to stream it in and to open it again (page load → all lines in the card),
//      then scrolling: to the bottom, random jumps, continuous wheel scrolling; frames per second and p95 frame time.
// The references, measured in the same browser and run: the same flood into a bare page over a raw WebSocket
// (agentCardsReference.mjs: what this machine and this Chromium give for it at best, under the same load), and the
// animation frames of the idle page.
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { launchChromium, readStat } from '../lib/chromium.mjs';
import { removeDir, tempDir } from '../lib/cleanup.mjs';
import { HostRpc, startHost } from '../lib/host.mjs';
import { productionBuild } from '../lib/productionBuild.mjs';
import { fetchBundle, summariseProfile } from '../lib/profile.mjs';
import { startTrace, stopTrace, summariseTrace } from '../lib/trace.mjs';
import { fmt, median } from '../lib/stats.mjs';
import { startFloodReference } from './agentCardsReference.mjs';
import { FLOOD_AGENT, FLOOD_CARD, FLOOD_TEXT, installCardAgents, MILLION_AGENT, MILLION_CARD, MILLION_LINES, parseFloodLine } from './agentCardAgents.mjs';

/**
 * The flood's latency goal is relative: p95 within `floodP95RefRatio` of the bare page's p95 in the same run (issue 24),
 * and never over `floodP95Ms`; its frames at least `floodFps` (the idle page draws 60).
 */
export const AGENT_CARD_GOALS = { floodChunksPerSec: 10_000, floodP95Ms: 100, floodP95RefRatio: 1.5, floodFps: 58, scrollFps: 50 };

const FLOOD_RATE = Number(process.env.BENCH_FLOOD_RATE ?? AGENT_CARD_GOALS.floodChunksPerSec);
const FLOOD_SECONDS = Number(process.env.BENCH_FLOOD_SECONDS ?? 5);
/** Floods per bench run; the median one is reported (timings on a shared machine drift a lot between runs). */
const FLOOD_RUNS = Number(process.env.BENCH_FLOOD_RUNS ?? 3);
/**
 * BENCH_AGENT_CARDS_PROFILE=1: the flood and the wheel scroll also run under the renderer's CPU profiler (a summary
 * is printed); BENCH_AGENT_CARDS_PROFILE=DIR also writes the .cpuprofile files there (open them in DevTools).
 */
const PROFILE = !!process.env.BENCH_AGENT_CARDS_PROFILE && process.env.BENCH_AGENT_CARDS_PROFILE !== '0';
const PROFILE_DIR = PROFILE && process.env.BENCH_AGENT_CARDS_PROFILE !== '1' ? process.env.BENCH_AGENT_CARDS_PROFILE : undefined;
/** BENCH_TRACE=1: the flood also records a Chromium trace (main-thread time by event); it slows the page. */
const TRACE = process.env.BENCH_TRACE === '1';
/** BENCH_AGENT_CARDS=flood or =million runs only that measurement. */
const PARTS = new Set((process.env.BENCH_AGENT_CARDS ?? 'flood,million').split(',').map((s) => s.trim()));

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const cardLines = (runId, cardId) => `[data-testid="run-card"][data-run-id="${runId}"] [data-card-id="${cardId}"] [data-testid="log-lines"]`;

/** Records animation frames (their start times) until `window.__frames.stop()`; returns nothing. */
const RECORD_FRAMES = `(() => {
  const rec = (window.__frames = { times: [], on: true });
  const frame = (t) => { if (!rec.on) return; rec.times.push(t); requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
  rec.stop = () => { rec.on = false; return rec.times; };
})()`;

/**
 * Records every change of the line count of log card `cardId` in the first run card that is not one of `known` (it
 * appears later: installed before the run starts, so the first chunks are seen too), with the epoch time in ms
 * (timeOrigin + now: comparable with the agent's Date.now()-based stamps).
 */
const recordLineCounts = (known, cardId) => `(() => {
  const known = new Set(${JSON.stringify(known)});
  const rec = (window.__counts = { changes: [], last: -1 });
  let lines = null;
  const check = () => {
    if (!lines || !lines.isConnected) {
      const card = [...document.querySelectorAll('[data-testid="run-card"]')].find((c) => !known.has(c.dataset.runId));
      lines = card ? card.querySelector('[data-card-id="${cardId}"] [data-testid="log-lines"]') : null;
      if (!lines) return;
    }
    const n = Number(lines.getAttribute('data-line-count'));
    if (n !== rec.last) { rec.last = n; rec.changes.push([performance.timeOrigin + performance.now(), n]); }
  };
  const observer = new MutationObserver(check);
  observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-line-count'] });
  rec.stop = () => { observer.disconnect(); return rec.changes; };
})()`;

/** Chooses `agent` in the visible session's launcher, types `prompt` and presses Start, as a user would. */
const startFromLauncher = (agent, prompt) => `(() => {
  const view = [...document.querySelectorAll('[data-testid="session-agents"]')].find((e) => e.offsetParent !== null);
  const select = view.querySelector('[data-testid="agent-select"]');
  const input = view.querySelector('[data-testid="agent-prompt"]');
  Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value').set.call(select, ${JSON.stringify(agent)});
  select.dispatchEvent(new Event('change', { bubbles: true }));
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(input, ${JSON.stringify(prompt)});
  input.dispatchEvent(new Event('input', { bubbles: true }));
  return new Promise((resolve) => setTimeout(() => { view.querySelector('[data-testid="agent-start"]').click(); resolve(true); }, 50));
})()`;

/** Waits until the newest run card of `agent` exists and returns its run id. */
const newestRunOf = (agent, before) => `(() => {
  const known = new Set(${JSON.stringify(before)});
  const card = [...document.querySelectorAll('[data-testid="run-card"]')].find((c) => !known.has(c.dataset.runId) && c.getAttribute('aria-label').startsWith(${JSON.stringify(`${agent} run`)}));
  return card ? card.dataset.runId : null;
})()`;

const runIdsOnPage = `[...document.querySelectorAll('[data-testid="run-card"]')].map((c) => c.dataset.runId)`;

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** fps and frame-time percentiles of rAF start times (ms). */
export function frameStats(times) {
  if (times.length < 2) return { frames: times.length, fps: NaN, p50Ms: NaN, p95Ms: NaN, maxMs: NaN, over50Ms: 0 };
  const gaps = [];
  for (let i = 1; i < times.length; i++) gaps.push(times[i] - times[i - 1]);
  const sorted = [...gaps].sort((a, b) => a - b);
  return {
    frames: gaps.length,
    fps: (gaps.length / (times.at(-1) - times[0])) * 1000,
    p50Ms: percentile(sorted, 50),
    p95Ms: percentile(sorted, 95),
    maxMs: sorted.at(-1),
    over50Ms: gaps.filter((g) => g > 50).length,
  };
}

/** Everything the run's event stream replays (its output chunks' text, in order), through a plain RPC subscription. */
function replayOutput(port, token, runId) {
  return new Promise((resolve, reject) => {
    // A bare WebSocket, as HostRpc (calls only) is: one subscription with all the credit it needs.
    import('ws').then(({ default: WebSocket }) => {
      const socket = new WebSocket(`ws://127.0.0.1:${port}/rpc?token=${encodeURIComponent(token)}`, { perMessageDeflate: false, maxPayload: 64 * 1024 * 1024 });
      const texts = [];
      socket.once('error', reject);
      socket.once('open', () => socket.send(JSON.stringify({ t: 'sub', id: 1, stream: 'agent.events', key: { runId }, credit: 1 << 30 })));
      socket.on('message', (raw) => {
        const frame = JSON.parse(String(raw));
        if (frame.t === 'item' || frame.t === 'items') {
          // Consecutive items may come as one frame (RpcServerOptions.batch).
          for (const item of frame.t === 'item' ? [frame.item] : frame.items) if (item.kind === 'output') texts.push(item.data);
        }
        else if (frame.t === 'end' || frame.t === 'err') {
          socket.close();
          if (frame.error) reject(new Error(`agent.events replay: ${frame.error.code} ${frame.error.message}`));
          else resolve(texts);
        }
      });
    }, reject);
  });
}

/**
 * Per chunk: the time from its emission (stamped by the agent) to the first DOM change after which the card's line
 * count covered it. Chunk i is line i + 1 of the card (each chunk is one line).
 */
export function chunkLatencies(emitted, changes) {
  const latencies = [];
  let c = 0;
  for (const { seq, emittedAt } of emitted) {
    while (c < changes.length && changes[c][1] < seq + 1) c++;
    if (c === changes.length) break;
    latencies.push(changes[c][0] - emittedAt);
  }
  return latencies;
}

async function startProfiler(page) {
  await page.send('Profiler.enable');
  await page.send('Profiler.setSamplingInterval', { interval: 500 });
  await page.send('Profiler.start');
}

async function stopProfiler(page, host, name) {
  const { profile } = await page.send('Profiler.stop');
  await page.send('Profiler.disable');
  if (PROFILE_DIR) {
    mkdirSync(PROFILE_DIR, { recursive: true });
    writeFileSync(join(PROFILE_DIR, `${name}.cpuprofile`), JSON.stringify(profile));
  }
  return summariseProfile(profile, { '/app.js': await fetchBundle(new URL('/app.js', host.url).href) });
}

function describeProfile(p) {
  const groups = Object.entries(p.groups).slice(0, 8).map(([g, ms]) => `${g} ${fmt(ms, ' ms', 0)}`);
  const top = p.top.filter(([w]) => !w.startsWith('(idle')).slice(0, 12).map(([w, ms]) => `\n      ${fmt(ms, ' ms', 0).padStart(7)}  ${w}`);
  return `${groups.join(', ')}${top.join('')}`;
}

async function measureFlood({ page, browser, host, runsBefore, log }) {
  const chunks = Math.round(FLOOD_RATE * FLOOD_SECONDS);
  await page.evaluate(RECORD_FRAMES);
  await sleep(2000);
  const idle = frameStats(await page.evaluate('window.__frames.stop()'));
  log(`  idle page (reference): ${fmt(idle.fps)} fps, p95 frame ${fmt(idle.p95Ms, ' ms')}`);

  if (PROFILE) await startProfiler(page);
  if (TRACE) await startTrace(browser.cdp);
  await page.evaluate(RECORD_FRAMES);
  const before = { host: readStat(host.child.pid), browser: browser.cpu() };
  await page.evaluate(recordLineCounts(runsBefore, FLOOD_CARD));
  await page.evaluate(startFromLauncher(FLOOD_AGENT, 'flood'), { awaitPromise: true });
  const runId = await page.waitFor(newestRunOf(FLOOD_AGENT, runsBefore), 'the flood run card', 15_000, 50);
  await page.waitFor(
    `document.querySelector('[data-testid="run-card"][data-run-id="${runId}"]')?.dataset.state === 'Terminated' && window.__counts.last >= ${chunks}`,
    `all ${chunks} flood chunks in the card`,
    FLOOD_SECONDS * 1000 + 120_000,
    // Seldom: each look is a script run on the page's main thread, which the flood needs.
    250,
  );
  const frames = await page.evaluate('window.__frames.stop()');
  const changes = await page.evaluate('window.__counts.stop()');
  const after = { host: readStat(host.child.pid), browser: browser.cpu() };
  const profile = PROFILE ? await stopProfiler(page, host, 'agent-cards-flood') : undefined;
  const trace = TRACE ? summariseTrace(await stopTrace(browser.cdp)) : undefined;
  if (trace) {
    const top = Object.entries(trace.selfMs).slice(0, 12).map(([name, ms]) => `${name} ${fmt(ms, ' ms', 0)}`);
    log(`  renderer main thread during the flood (trace): busy ${fmt(trace.busyMs, ' ms', 0)} of ${fmt(trace.spanMs, ' ms', 0)}: ${top.join(', ')}`);
  }
  const outcome = await page.evaluate(`document.querySelector('[data-testid="run-card"][data-run-id="${runId}"]').dataset.outcome`);
  if (outcome !== 'completed') throw new Error(`the flood run ended ${outcome}`);

  const emitted = (await replayOutput(host.port, host.token, runId))
    .join('')
    .split('\n')
    .map(parseFloodLine)
    .filter(Boolean);
  if (emitted.length !== chunks || emitted.some((e, i) => e.seq !== i)) throw new Error(`the replay holds ${emitted.length} flood lines in order, expected ${chunks}`);
  const inOrder = chunkLatencies(emitted, changes);
  const latencies = [...inOrder].sort((a, b) => a - b);
  // Where in the flood the slow chunks were: the worst latency of each half second of emission.
  const timeline = [];
  inOrder.forEach((ms, i) => {
    const slot = Math.floor((emitted[i].emittedAt - emitted[0].emittedAt) / 500);
    timeline[slot] = Math.max(timeline[slot] ?? 0, Math.round(ms));
  });
  const firstIn = changes.find(([, n]) => n > 0)[0];
  const lastIn = changes.at(-1)[0];
  const emitSpanMs = emitted.at(-1).emittedAt - emitted[0].emittedAt;
  // The frames while chunks were arriving (the first and last DOM change bound the flood).
  const floodFrames = frameStats(framesBetween(frames, firstIn, lastIn));
  const result = {
    chunks,
    targetPerSec: FLOOD_RATE,
    emittedPerSec: ((chunks - 1) / emitSpanMs) * 1000,
    domPerSec: ((chunks - 1) / (lastIn - firstIn)) * 1000,
    domUpdates: changes.length,
    latencyMs: { p50: percentile(latencies, 50), p95: percentile(latencies, 95), p99: percentile(latencies, 99), max: latencies.at(-1) },
    worstLatencyPerHalfSecondMs: timeline,
    frames: floodFrames,
    cpuMs: {
      host: after.host.cpuMs - before.host.cpuMs,
      renderer: (after.browser.roles.renderer ?? 0) - (before.browser.roles.renderer ?? 0),
      browser: (after.browser.roles.browser ?? 0) - (before.browser.roles.browser ?? 0),
      gpu: (after.browser.roles['gpu-process'] ?? 0) - (before.browser.roles['gpu-process'] ?? 0),
    },
    wallMs: lastIn - firstIn,
    /** The machine's 1-minute load average at the end: other work on a shared machine shows here. */
    loadAverage: loadavg()[0],
    profile,
  };
  if (profile) log(`  renderer profile during the flood: ${describeProfile(profile)}`);
  log(
    `  flood: ${chunks} chunks, agent emitted ${fmt(result.emittedPerSec, '/s', 0)}, reached the DOM at ${fmt(result.domPerSec, '/s', 0)} in ${result.domUpdates} DOM updates; ` +
      `latency p50 ${fmt(result.latencyMs.p50, ' ms')}, p95 ${fmt(result.latencyMs.p95, ' ms')}, max ${fmt(result.latencyMs.max, ' ms')}; ` +
      `${fmt(result.frames.fps)} fps (p95 frame ${fmt(result.frames.p95Ms, ' ms')}); CPU ms host ${result.cpuMs.host}, renderer ${result.cpuMs.renderer}, browser ${result.cpuMs.browser}, GPU ${result.cpuMs.gpu}; ` +
      `worst latency per half second: ${timeline.join(' ')} ms; load average ${fmt(result.loadAverage)}`,
  );
  return { idle, runId, ...result };
}

/**
 * rAF times are the page's performance.now(); DOM changes are epoch ms (timeOrigin + now). Both come from the same
 * page, so the offset is its timeOrigin, read after it loads.
 */
let timeOrigin = 0;

/** Frames (page-relative ms) between two epoch times. */
function framesBetween(frames, fromEpoch, toEpoch) {
  return frames.filter((t) => t + timeOrigin >= fromEpoch && t + timeOrigin <= toEpoch);
}

async function measureMillion({ page, host, runsBefore, log }) {
  // Stream it in.
  await page.evaluate(RECORD_FRAMES);
  const startedAt = Date.now();
  await page.evaluate(startFromLauncher(MILLION_AGENT, 'a million lines'), { awaitPromise: true });
  const runId = await page.waitFor(newestRunOf(MILLION_AGENT, runsBefore), 'the million-line run card', 15_000, 5);
  const selector = cardLines(runId, MILLION_CARD);
  await page.waitFor(`Number(document.querySelector('${selector}')?.getAttribute('data-line-count')) >= ${MILLION_LINES}`, 'a million lines in the card', 180_000, 20);
  const streamMs = Date.now() - startedAt;
  const streamFrames = frameStats(await page.evaluate('window.__frames.stop()'));
  log(`  million lines: streamed into the card in ${fmt(streamMs / 1000, ' s', 2)} (${fmt(streamFrames.fps)} fps meanwhile)`);

  // Open it again: a fresh page load replays the run from the host.
  const openStarted = Date.now();
  await page.navigate(host.url);
  await page.waitFor(`Number(document.querySelector('${selector}')?.getAttribute('data-line-count')) >= ${MILLION_LINES}`, 'the reopened million-line card', 180_000, 10);
  const openMs = Date.now() - openStarted;
  log(`  million lines: page load → all lines in the card ${fmt(openMs / 1000, ' s', 2)}`);
  await page.evaluate(`document.querySelector('${selector}').scrollIntoView({ block: 'center' })`);
  await sleep(300);

  // From the top to the bottom (a reopened log follows its end, so it starts at the top here).
  const box = await page.evaluate(`(() => { const el = document.querySelector('${selector}'); el.focus(); const r = el.getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 }; })()`);
  await page.evaluate(`(() => {
    const el = document.querySelector('${selector}');
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    window.__bottom = (async () => {
      el.scrollTop = 0;
      while (!el.querySelector('.line-row[data-line="1"]')) await frame();
      await frame();
      const t0 = performance.now();
      el.scrollTop = el.scrollHeight;
      while (!el.querySelector('.line-row[data-line="${MILLION_LINES}"]')) await frame();
      return performance.now() - t0;
    })();
  })()`);
  const bottomMs = await page.evaluate('window.__bottom', { awaitPromise: true });

  // Random jumps: scrollTop anywhere; time until the rows of the new place are in the DOM (the frame that shows them).
  const jumps = await page.evaluate(
    `(async () => {
      const el = document.querySelector('${selector}');
      const frame = () => new Promise((r) => requestAnimationFrame(r));
      const firstRow = () => Number(el.querySelector('.line-row')?.dataset.line ?? -1);
      let seed = 42;
      const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
      const times = [];
      const frames = [];
      const record = (t) => { frames.push(t); };
      for (let i = 0; i < 40; i++) {
        const from = firstRow();
        const t0 = performance.now();
        el.scrollTop = Math.floor(random() * (el.scrollHeight - el.clientHeight));
        let n = 0;
        while (firstRow() === from && n < 30) { record(await frame()); n++; }
        times.push(performance.now() - t0);
        record(await frame());
      }
      return { times, frames };
    })()`,
    { awaitPromise: true, timeoutMs: 60_000 },
  );
  const jumpTimes = [...jumps.times].sort((a, b) => a - b);

  // Continuous wheel scrolling: a wheel notch every 16 ms for 3 s at the card's centre.
  if (PROFILE) await startProfiler(page);
  const firstBefore = await page.evaluate(`Number(document.querySelector('${selector}').querySelector('.line-row')?.dataset.line)`);
  await page.evaluate(`document.querySelector('${selector}').scrollTop = 0`);
  await sleep(100);
  await page.evaluate(RECORD_FRAMES);
  const wheelUntil = Date.now() + 3000;
  let notches = 0;
  const sent = [];
  while (Date.now() < wheelUntil) {
    // Not awaited one by one: a notch every 16 ms whatever the page does, as a wheel that keeps turning.
    sent.push(page.send('Input.dispatchMouseEvent', { type: 'mouseWheel', x: box.x, y: box.y, deltaX: 0, deltaY: 100 }));
    notches++;
    await sleep(16);
  }
  await Promise.all(sent);
  const wheelFrames = frameStats(await page.evaluate('window.__frames.stop()'));
  const wheelProfile = PROFILE ? await stopProfiler(page, host, 'agent-cards-wheel') : undefined;
  const firstAfter = await page.evaluate(`Number(document.querySelector('${selector}').querySelector('.line-row')?.dataset.line)`);
  if (!(firstAfter > 1)) throw new Error(`wheel scrolling did not move the million-line card (first row ${firstBefore} → ${firstAfter})`);
  if (wheelProfile) log(`  renderer profile while wheel scrolling: ${describeProfile(wheelProfile)}`);
  const result = {
    lines: MILLION_LINES,
    streamMs,
    streamFrames,
    openMs,
    bottomMs,
    jumps: { count: jumpTimes.length, p50Ms: percentile(jumpTimes, 50), p95Ms: percentile(jumpTimes, 95), frames: frameStats(jumps.frames) },
    wheel: { notches, rowsMoved: firstAfter - 1, frames: wheelFrames, profile: wheelProfile },
  };
  log(
    `  million lines: top → bottom, last row shown in ${fmt(bottomMs, ' ms')}; ${result.jumps.count} random jumps p50 ${fmt(result.jumps.p50Ms, ' ms')}, p95 ${fmt(result.jumps.p95Ms, ' ms')}; ` +
      `wheel ${notches} notches over ${result.wheel.rowsMoved} rows: ${fmt(wheelFrames.fps)} fps, p95 frame ${fmt(wheelFrames.p95Ms, ' ms')}`,
  );
  return result;
}

/** The same flood into the bare reference page (agentCardsReference.mjs), measured the same way. */
async function measureReferenceFlood({ page, browser, reference, log }) {
  const chunks = Math.round(FLOOD_RATE * FLOOD_SECONDS);
  await page.navigate(reference.url);
  await page.waitFor('typeof window.__start === "function"', 'the reference page', 15_000);
  await sleep(500);
  const origin = await page.evaluate('performance.timeOrigin');
  await page.evaluate(RECORD_FRAMES);
  const before = browser.cpu();
  await page.evaluate('window.__start()', { awaitPromise: true });
  await page.waitFor(`window.__counts.last >= ${chunks}`, `all ${chunks} reference lines on the page`, FLOOD_SECONDS * 1000 + 60_000, 250);
  const frames = await page.evaluate('window.__frames.stop()');
  const changes = await page.evaluate('window.__counts.changes');
  const after = browser.cpu();
  const latencies = chunkLatencies(reference.emitted(), changes).sort((a, b) => a - b);
  const firstIn = changes.find(([, n]) => n > 0)[0];
  const lastIn = changes.at(-1)[0];
  const result = {
    latencyMs: { p50: percentile(latencies, 50), p95: percentile(latencies, 95), max: latencies.at(-1) },
    frames: frameStats(frames.filter((t) => t + origin >= firstIn && t + origin <= lastIn)),
    domUpdates: changes.length,
    cpuMs: { renderer: (after.roles.renderer ?? 0) - (before.roles.renderer ?? 0), gpu: (after.roles['gpu-process'] ?? 0) - (before.roles['gpu-process'] ?? 0) },
    loadAverage: loadavg()[0],
  };
  log(
    `  reference flood (bare page, raw WebSocket): latency p50 ${fmt(result.latencyMs.p50, ' ms')}, p95 ${fmt(result.latencyMs.p95, ' ms')}; ${fmt(result.frames.fps)} fps; ` +
      `${result.domUpdates} DOM updates; CPU ms renderer ${result.cpuMs.renderer}, GPU ${result.cpuMs.gpu}; load average ${fmt(result.loadAverage)}`,
  );
  return result;
}

async function reload(page, host) {
  await page.navigate(host.url);
  await page.waitFor(`!!document.querySelector('[data-testid="agent-select"] option[value="${FLOOD_AGENT}"]')`, 'the launcher listing the bench agents', 20_000);
  await page.waitFor(`document.querySelectorAll('[data-testid="run-card"][data-state="Terminated"]').length === document.querySelectorAll('[data-testid="run-card"]').length`, 'the earlier runs replayed', 60_000, 100);
  await sleep(1000);
  timeOrigin = await page.evaluate('performance.timeOrigin');
}

/** The median run (by p95 latency) stands for the floods; every run is kept. */
function summariseFloods(runs, references) {
  const byP95 = [...runs].sort((a, b) => a.latencyMs.p95 - b.latencyMs.p95);
  const middle = byP95[(byP95.length - 1) >> 1];
  const med = (pick) => median(runs.map(pick));
  return {
    ...middle,
    runs: runs.length,
    median: {
      emittedPerSec: med((r) => r.emittedPerSec),
      domPerSec: med((r) => r.domPerSec),
      p50Ms: med((r) => r.latencyMs.p50),
      p95Ms: med((r) => r.latencyMs.p95),
      fps: med((r) => r.frames.fps),
      idleFps: med((r) => r.idle.fps),
    },
    reference: {
      p50Ms: median(references.map((r) => r.latencyMs.p50)),
      p95Ms: median(references.map((r) => r.latencyMs.p95)),
      fps: median(references.map((r) => r.frames.fps)),
      all: references,
    },
    all: runs.map((r) => ({ emittedPerSec: r.emittedPerSec, domPerSec: r.domPerSec, latencyMs: r.latencyMs, fps: r.frames.fps, idleFps: r.idle.fps, loadAverage: r.loadAverage, cpuMs: r.cpuMs })),
  };
}

/**
 * Runs both measurements on a production build (made here unless `prodRoot` is given) with a fresh host home.
 * Returns the figures; throws when something could not be measured at all.
 */
export async function measureAgentCards({ root, prodRoot, log }) {
  const dirs = [];
  let host;
  let rpc;
  let browser;
  try {
    const appRoot = prodRoot ?? productionBuild(root);
    if (!prodRoot) dirs.push(appRoot);
    const home = tempDir('cards-home');
    const workspace = tempDir('cards-workspace');
    dirs.push(home, workspace);
    await installCardAgents(home, { chunksPerSecond: FLOOD_RATE, chunks: Math.round(FLOOD_RATE * FLOOD_SECONDS) });
    host = await startHost(appRoot, home);
    rpc = await HostRpc.connect(host.port, host.token);
    await rpc.call('session.create', { workspace, name: 'cards' });
    browser = await launchChromium();
    const { page } = browser;
    await page.navigate(host.url);
    await page.waitFor(`!!document.querySelector('[data-testid="agent-select"] option[value="${FLOOD_AGENT}"]')`, 'the launcher listing the bench agents', 20_000);
    timeOrigin = await page.evaluate('performance.timeOrigin');
    let flood;
    if (PARTS.has('flood')) {
      const runs = [];
      const references = [];
      const reference = await startFloodReference({ rate: FLOOD_RATE, chunks: Math.round(FLOOD_RATE * FLOOD_SECONDS), text: FLOOD_TEXT });
      try {
        for (let i = 0; i < FLOOD_RUNS; i++) {
          // Each flood on a freshly loaded page (the earlier floods' cards replayed and settled below the new one),
          // each followed by the reference, so both see the same conditions.
          if (i > 0) await reload(page, host);
          runs.push(await measureFlood({ page, browser, host, runsBefore: await page.evaluate(runIdsOnPage), log }));
          references.push(await measureReferenceFlood({ page, browser, reference, log }));
        }
      } finally {
        await reference.close();
      }
      flood = summariseFloods(runs, references);
      await reload(page, host);
    }
    const million = PARTS.has('million') ? await measureMillion({ page, host, runsBefore: await page.evaluate(runIdsOnPage), log }) : undefined;
    return { goals: AGENT_CARD_GOALS, flood, million };
  } finally {
    await browser?.close();
    rpc?.close();
    await host?.stop();
    for (const dir of dirs) removeDir(dir);
  }
}
