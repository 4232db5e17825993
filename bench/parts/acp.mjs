// ACP conversations under a flood (issue 21's bench): a scripted agent (acpFloodAgent.mjs) streams
// `agent_message_chunk` updates at 10,000 a second for a few seconds, every chunk stamped with its number and the
// epoch ms it was written. Three readers of the same agent, alternating within each round so they share the
// machine's conditions:
//   bare    the reference: the SDK's client app over the agent's stdio in a process of its own (acpBareClient.mjs);
//   host    the real host (`omni serve`, production build, its default launcher: the agent in the native sandbox
//           where the machine has one) read over its RPC WebSocket (acp.start, acp.updates, acp.prompt) from this
//           process: what the host adds, without a page;
//   page    the same host with Chromium on the real renderer page (started directly, no Playwright: its tracing
//           slows WebSocket streams; bench/lib/chromium.mjs), as a user does it: New agent conversation, the flood
//           agent, the prompt typed and sent. A MutationObserver on the conversation card records when the
//           highest chunk number shown changed (epoch ms: the agent's stamps share that clock), and every animation
//           frame is counted.
// Goals (issue 21): chunk → DOM p95 ≤ 100 ms at ≥ 50 fps; chunks reach the DOM at ≥ 0.9× the bare client's rate;
// prompt → first chunk at most 20 ms over the bare client's.
import { spawn } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { launchChromium, readStat } from '../lib/chromium.mjs';
import { removeDir, tempDir } from '../lib/cleanup.mjs';
import { HostRpc, startHost } from '../lib/host.mjs';
import { productionBuild } from '../lib/productionBuild.mjs';
import { fetchBundle, summariseProfile } from '../lib/profile.mjs';
import { startTrace, stopTrace, summariseTrace } from '../lib/trace.mjs';
import { fmt, median, ratioText, table } from '../lib/stats.mjs';
import { floodFigures, parseChunkMarker, shownArrivals } from './acpFloodMarkers.mjs';
import { frameStats } from './agentCards.mjs';

export const ACP_GOALS = { chunksPerSec: 10_000, p95Ms: 100, fps: 50, rateRatio: 0.9, firstChunkOverheadMs: 20 };

const here = dirname(fileURLToPath(import.meta.url));
const RATE = Number(process.env.BENCH_ACP_RATE ?? ACP_GOALS.chunksPerSec);
const SECONDS = Number(process.env.BENCH_ACP_SECONDS ?? 3);
const CHUNKS = Math.round(RATE * SECONDS);
/** Rounds of bare client, host and page; the median of each figure is reported (a shared machine drifts a lot). */
const RUNS = Number(process.env.BENCH_ACP_RUNS ?? 3);
/** BENCH_ACP=bare,host,page: which readers run (the page needs the renderer's ACP conversation card). */
const READERS = new Set((process.env.BENCH_ACP ?? 'bare,host,page').split(',').map((s) => s.trim()));
/** BENCH_ACP_HOST_PROF=DIR: the host runs with --cpu-prof into DIR; where its time went is printed. */
const HOST_PROF = process.env.BENCH_ACP_HOST_PROF;
/** BENCH_ACP_PROFILE=1: the page's floods run under the renderer's CPU profiler; where its time went is printed. */
const PAGE_PROF = process.env.BENCH_ACP_PROFILE === '1';
/** BENCH_TRACE=1: the page's floods also record a Chromium trace (main-thread time by event); it slows the page. */
const TRACE = process.env.BENCH_TRACE === '1';
/** BENCH_ACP_PAGE_CSS='…': a style sheet added to the page before the flood, to try a renderer-side layout change. */
const PAGE_CSS = process.env.BENCH_ACP_PAGE_CSS;
const AGENT_ID = 'bench-flood';
const AGENT_PROGRAM = 'acp-bench-flood';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const now = () => performance.timeOrigin + performance.now();

/**
 * Installs the flood agent the way an adapter is installed (`<home>/acp-agents/node_modules/<pkg>`, its program
 * linked from node_modules/.bin), so the host's default launcher finds it by name and shows that folder, read-only,
 * to the sandboxed agent; the rest of the app home stays hidden from it. Registers it in `<home>/acp-agents.json`.
 */
function installFloodAgent(home) {
  const pkg = join(home, 'acp-agents', 'node_modules', AGENT_PROGRAM);
  const bin = join(home, 'acp-agents', 'node_modules', '.bin');
  mkdirSync(pkg, { recursive: true });
  mkdirSync(bin, { recursive: true });
  const program = join(pkg, 'agent.mjs');
  copyFileSync(join(here, 'acpFloodAgent.mjs'), program);
  chmodSync(program, 0o755);
  symlinkSync(join('..', AGENT_PROGRAM, 'agent.mjs'), join(bin, AGENT_PROGRAM));
  const env = { ACP_FLOOD_RATE: String(RATE), ACP_FLOOD_CHUNKS: String(CHUNKS) };
  writeFileSync(join(home, 'acp-agents.json'), JSON.stringify({ schema_version: 1, agents: [{ id: AGENT_ID, name: 'Bench flood', command: AGENT_PROGRAM, args: [], env }] }));
  return { program, env };
}

/** The reference: acpBareClient.mjs in its own process, on the same agent program. */
function bareFlood(agent, workspace) {
  return new Promise((resolve, reject) => {
    const options = { command: process.execPath, args: [agent.program], env: agent.env, cwd: workspace, chunks: CHUNKS };
    const child = spawn(process.execPath, [join(here, 'acpBareClient.mjs'), JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`the bare ACP client exited with ${code}: ${err.trim().split('\n').slice(-6).join('\n')}`));
      resolve(JSON.parse(out.trim().split('\n').pop()));
    });
  });
}

/** A raw subscription to a conversation's acp.updates with all the credit it needs; `chunks` as they arrive. */
function subscribeUpdates(host, conversationId) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${host.port}/rpc?token=${encodeURIComponent(host.token)}`, { perMessageDeflate: false, maxPayload: 64 * 1024 * 1024 });
    const sub = { arrivals: [], written: [], items: 0, error: undefined, close: () => socket.close() };
    socket.once('error', reject);
    socket.once('open', () => socket.send(JSON.stringify({ t: 'sub', id: 1, stream: 'acp.updates', key: { conversationId }, credit: 1 << 30 })));
    socket.on('message', (raw) => {
      const at = now();
      const frame = JSON.parse(String(raw));
      if (frame.t === 'item' || frame.t === 'items') {
        // The stored entries come first (the record's status): the subscription is live once one has arrived.
        if (sub.items === 0) resolve(sub);
        for (const entry of frame.t === 'item' ? [frame.item] : frame.items) {
          sub.items++;
          if (entry.type === 'prompt') sub.promptStoredAt = entry.ts;
          // The record's 'prompting' status is appended durably: its ts is once the event log's writer committed it.
          if (entry.type === 'status' && entry.data?.status === 'prompting') sub.promptingCommittedAt = entry.ts;
          if (entry.type !== 'update' || entry.data?.sessionUpdate !== 'agent_message_chunk') continue;
          const marker = parseChunkMarker(entry.data.content?.text ?? '');
          if (marker) sub.arrivals.push([marker.seq, marker.at, at]);
        }
      } else if (frame.t === 'end' || frame.t === 'err') {
        sub.error = frame.error ?? new Error('acp.updates ended');
        reject(new Error(`acp.updates: ${frame.error?.code} ${frame.error?.message}`));
      }
    });
  });
}

async function waitUntil(check, what, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** The host without a page: this process prompts over RPC and reads the conversation's acp.updates. */
async function hostFlood({ host, rpc, sessionId }) {
  const conversation = await rpc.call('acp.start', { sessionId, agent: AGENT_ID });
  const sub = await subscribeUpdates(host, conversation.id);
  try {
    const before = readStat(host.child.pid);
    const promptAt = now();
    const { stopReason } = await rpc.call('acp.prompt', { conversationId: conversation.id, text: 'flood' });
    if (stopReason !== 'end_turn') throw new Error(`the turn ended ${stopReason}`);
    await waitUntil(() => sub.arrivals.length >= CHUNKS, `${CHUNKS} chunks over acp.updates`, 60_000);
    const after = readStat(host.child.pid);
    return { ...floodFigures(sub.arrivals, promptAt, CHUNKS), sandboxed: conversation.sandboxed, hostCpuMs: after.cpuMs - before.cpuMs };
  } finally {
    sub.close();
    await rpc.call('acp.stop', { conversationId: conversation.id }).catch(() => {});
  }
}

/** A conversation's chunks [seq, writtenAt] as the host replays them, and when the host stored the prompt (epoch ms). */
async function replayChunks(host, conversationId) {
  const sub = await subscribeUpdates(host, conversationId);
  await waitUntil(() => sub.arrivals.length >= CHUNKS, `the replay of ${CHUNKS} chunks`, 60_000);
  sub.close();
  return { written: sub.arrivals.map(([seq, at]) => [seq, at]), promptStoredAt: sub.promptStoredAt, promptingCommittedAt: sub.promptingCommittedAt };
}

const RECORD_FRAMES = `(() => {
  const rec = (window.__frames = { times: [], on: true });
  const frame = (t) => { if (!rec.on) return; rec.times.push(t); requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
  rec.stop = () => { rec.on = false; return rec.times; };
})()`;

/**
 * Records every rise of the highest chunk number shown in conversation card `conversationId`'s agent messages, with
 * the epoch time of the DOM change. Only the text that changed is read (the last marker in it): the newest chunk is
 * always at the end of what changed, and reading the whole message at every change would cost the page more than
 * the change did.
 */
const recordShown = (conversationId) => `(() => {
  const rec = (window.__shown = { changes: [], last: -1 });
  const message = '[data-testid="acp-conversation"][data-conversation-id="${conversationId}"] [data-testid="acp-agent-message"]';
  const lastSeq = (text) => {
    const open = text.lastIndexOf('«');
    if (open < 0) return -1;
    const colon = text.indexOf(':', open);
    return colon < 0 ? -1 : Number(text.slice(open + 1, colon));
  };
  const observer = new MutationObserver((records) => {
    const at = performance.timeOrigin + performance.now();
    let top = rec.last;
    for (const r of records) {
      if (r.type === 'characterData') {
        if (r.target.parentElement?.closest(message)) top = Math.max(top, lastSeq(r.target.data));
        continue;
      }
      for (const added of r.addedNodes) {
        const inMessage = added.nodeType === 1 ? added.closest(message) || added.querySelector(message) : added.parentElement?.closest(message);
        if (inMessage) top = Math.max(top, lastSeq(added.textContent || ''));
      }
    }
    if (top > rec.last) { rec.last = top; rec.changes.push([at, top]); }
  });
  observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  rec.stop = () => { observer.disconnect(); return rec.changes; };
})()`;

const visible = (testid) => `[...document.querySelectorAll('[data-testid="${testid}"]')].filter((e) => e.offsetParent !== null)`;

/** Sets a textarea's value as typing does (React listens to the native setter's input event). */
const typeInto = (selector, text) => `(() => {
  const el = ${selector};
  Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').set.call(el, ${JSON.stringify(text)});
  el.dispatchEvent(new Event('input', { bubbles: true }));
  return true;
})()`;

/**
 * The renderer main thread's CPU time (the trace's thread durations, `tdur`, not wall time: on a machine shared with
 * other work, wall time counts the waits for a core) in its top-level tasks, and in layout, paint and style.
 */
function mainThreadCpu(events) {
  const main = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const byThread = new Map();
  for (const e of events) {
    if (e.ph !== 'X' || typeof e.tdur !== 'number' || !main.has(`${e.pid}:${e.tid}`)) continue;
    const key = `${e.pid}:${e.tid}`;
    if (!byThread.has(key)) byThread.set(key, []);
    byThread.get(key).push(e);
  }
  let list = [];
  for (const l of byThread.values()) if (l.length > list.length) list = l;
  list.sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const sum = { busyMs: 0, layoutMs: 0, layouts: 0, paintMs: 0, styleMs: 0, dirtyObjects: 0, totalObjects: 0, partial: 0 };
  let topEnd = -Infinity;
  for (const e of list) {
    // Top-level: not inside the previous top-level event.
    if (e.ts >= topEnd) {
      sum.busyMs += e.tdur / 1000;
      topEnd = e.ts + e.dur;
    }
    if (e.name === 'Layout') {
      sum.layoutMs += e.tdur / 1000;
      sum.layouts++;
      // How much of the page each layout walked: objects needing layout, objects in the tree, whether it began below the root.
      const begin = e.args?.beginData ?? {};
      sum.dirtyObjects += begin.dirtyObjects ?? 0;
      sum.totalObjects += begin.totalObjects ?? 0;
      if (begin.partialLayout) sum.partial++;
    } else if (e.name === 'Paint') sum.paintMs += e.tdur / 1000;
    else if (e.name === 'UpdateLayoutTree') sum.styleMs += e.tdur / 1000;
  }
  return sum;
}

/** The page: a new conversation with the flood agent, the prompt sent by click, the flood watched in the DOM. */
/**
 * Notes when the first flood chunk of conversation `window.__watchConversation` reaches the page's WebSocket (epoch
 * ms; when its message event runs, so a busy main thread delays it too): what splits prompt → first chunk into the
 * host's part and the page's. Two substring tests per message (the host batches a turn's items into one).
 */
const WATCH_FIRST_CHUNK = `(() => {
  const Native = window.WebSocket;
  window.__firstChunkAt = null;
  window.__watchConversation = null;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (e) => {
        const id = window.__watchConversation;
        if (id && window.__firstChunkAt === null && typeof e.data === 'string' && e.data.includes('«0:') && e.data.includes(id)) window.__firstChunkAt = performance.timeOrigin + performance.now();
      });
    }
  };
})()`;

async function pageFlood({ browser, host, workspace, log }) {
  const { page } = browser;
  if (!pageFlood.watching) {
    await page.send('Page.addScriptToEvaluateOnNewDocument', { source: WATCH_FIRST_CHUNK });
    pageFlood.watching = true;
  }
  // A session of its own, so the page holds this flood's conversation alone (not the earlier rounds').
  const rpc = await HostRpc.connect(host.port, host.token);
  const { id: sessionId } = await rpc.call('session.create', { workspace, name: `acp bench page ${Date.now()}` });
  await page.navigate(host.url);
  await page.waitFor(`!!document.querySelector('[data-testid="session-item"][data-session-id="${sessionId}"] .session-select')`, 'the new session in the sidebar', 20_000);
  await page.evaluate(`document.querySelector('[data-testid="session-item"][data-session-id="${sessionId}"] .session-select').click()`);
  await page.waitFor(`${visible('acp-new')}.some((b) => !b.disabled)`, 'the "New agent conversation" button', 20_000);
  if (PAGE_CSS) await page.evaluate(`document.head.appendChild(Object.assign(document.createElement('style'), { textContent: ${JSON.stringify(PAGE_CSS)} })) && true`);
  const before = await page.evaluate(`${visible('acp-conversation')}.map((c) => c.dataset.conversationId)`);
  await page.evaluate(`${visible('acp-new')}[0].click()`);
  await page.waitFor(`${visible(`acp-agent-${AGENT_ID}`)}.some((b) => !b.disabled)`, `the agent option acp-agent-${AGENT_ID}`, 10_000);
  await page.evaluate(`${visible(`acp-agent-${AGENT_ID}`)}[0].click()`);
  const conversationId = await page.waitFor(
    `${visible('acp-conversation')}.map((c) => c.dataset.conversationId).find((id) => !${JSON.stringify(before)}.includes(id)) ?? null`,
    'the new conversation card',
    30_000,
    50,
  );
  const card = `document.querySelector('[data-testid="acp-conversation"][data-conversation-id="${conversationId}"]')`;
  await page.waitFor(`${card}?.dataset.status === 'ready'`, 'the new conversation ready', 30_000, 50).catch(async (error) => {
    const status = await page.evaluate(`${card} ? ${card}.dataset.status + ': ' + ${card}.innerText.slice(0, 500) : 'no card'`);
    throw new Error(`${error.message} (${status})`);
  });
  const prompt = `${card}.querySelector('[data-testid="acp-prompt"]')`;
  const send = `${card}.querySelector('[data-testid="acp-send"]')`;
  await page.evaluate(typeInto(prompt, 'flood'));
  await page.waitFor(`!${send}.disabled`, 'the send button enabled', 5_000);
  await sleep(500);
  await page.evaluate(RECORD_FRAMES);
  await page.evaluate(recordShown(conversationId));
  await page.evaluate(`window.__watchConversation = ${JSON.stringify(conversationId)}`);
  if (PAGE_PROF) {
    await page.send('Profiler.enable');
    await page.send('Profiler.setSamplingInterval', { interval: 500 });
    await page.send('Profiler.start');
  }
  if (TRACE) await startTrace(browser.cdp);
  const cpuBefore = { host: readStat(host.child.pid), browser: browser.cpu() };
  const promptAt = await page.evaluate(`(() => { const at = performance.timeOrigin + performance.now(); ${send}.click(); return at; })()`);
  // Seldom: each look is a script run on the page's main thread, which the flood needs.
  await page.waitFor(`window.__shown.last >= ${CHUNKS - 1}`, `all ${CHUNKS} chunks in the conversation card`, SECONDS * 1000 + 120_000, 250);
  const frames = await page.evaluate('window.__frames.stop()');
  const changes = await page.evaluate('window.__shown.stop()');
  const cpuAfter = { host: readStat(host.child.pid), browser: browser.cpu() };
  if (TRACE) {
    const events = await stopTrace(browser.cdp);
    const trace = summariseTrace(events);
    const cpu = mainThreadCpu(events);
    log(`  renderer main thread CPU during the flood (trace, thread time: what a loaded machine does not inflate): ${fmt(cpu.busyMs, ' ms', 0)} busy, layout ${fmt(cpu.layoutMs, ' ms', 0)} in ${cpu.layouts}, paint ${fmt(cpu.paintMs, ' ms', 0)}, style ${fmt(cpu.styleMs, ' ms', 0)}; per layout ${fmt(cpu.dirtyObjects / cpu.layouts, '', 0)} dirty of ${fmt(cpu.totalObjects / cpu.layouts, '', 0)} objects, ${cpu.partial} of ${cpu.layouts} partial`);
    const top = Object.entries(trace.selfMs).slice(0, 14).map(([name, ms]) => `${name} ${fmt(ms, ' ms', 0)}`);
    const counts = ['LocalFrameView::performLayout', 'FunctionCall', 'Receive mojo message', 'Paint'].map((name) => `${name} ×${trace.counts[name] ?? 0}`);
    log(`  renderer main thread during the flood (trace): busy ${fmt(trace.busyMs, ' ms', 0)} of ${fmt(trace.spanMs, ' ms', 0)}: ${top.join(', ')}; ${counts.join(', ')}`);
  }
  let profile;
  if (PAGE_PROF) {
    const stopped = await page.send('Profiler.stop');
    await page.send('Profiler.disable');
    profile = summariseProfile(stopped.profile, { '/app.js': await fetchBundle(new URL('/app.js', host.url).href) });
    const groups = Object.entries(profile.groups).slice(0, 10).map(([g, ms]) => `${g} ${fmt(ms, ' ms', 0)}`);
    log(`  renderer profile during the flood: ${groups.join(', ')}`);
    log(profile.top.filter(([w]) => !w.startsWith('(idle')).map(([w, ms]) => `    ${fmt(ms, ' ms', 0).padStart(8)}  ${w}`).join('\n'));
  }
  await page.waitFor(`${card}?.dataset.status === 'ready'`, 'the turn ended', 30_000, 100);
  const { written, promptStoredAt, promptingCommittedAt } = await replayChunks(host, conversationId);
  const figures = floodFigures(shownArrivals(written, changes), promptAt, CHUNKS);
  // Where prompt → first chunk went: the click to the host storing the prompt, the agent writing its first chunk, the chunk shown.
  figures.promptStoredMs = promptStoredAt - promptAt;
  figures.promptCommittedMs = promptingCommittedAt - promptAt;
  figures.firstChunkAtPageMs = (await page.evaluate('window.__firstChunkAt')) - promptAt;
  const origin = await page.evaluate('performance.timeOrigin');
  const firstIn = changes[0][0];
  const lastIn = changes.at(-1)[0];
  await rpc.call('acp.stop', { conversationId }).catch(() => {});
  rpc.close();
  return {
    ...figures,
    domUpdates: changes.length,
    sandboxed: await page.evaluate(`!!${card}.querySelector('[data-testid="acp-sandboxed"]')`),
    frames: frameStats(frames.filter((t) => t + origin >= firstIn && t + origin <= lastIn)),
    cpuMs: {
      host: cpuAfter.host.cpuMs - cpuBefore.host.cpuMs,
      renderer: (cpuAfter.browser.roles.renderer ?? 0) - (cpuBefore.browser.roles.renderer ?? 0),
      browser: (cpuAfter.browser.roles.browser ?? 0) - (cpuBefore.browser.roles.browser ?? 0),
    },
  };
}

function describe(name, f) {
  return `${name}: ${f.chunks} chunks written at ${fmt(f.writtenPerSec, '/s', 0)}, arrived at ${fmt(f.arrivedPerSec, '/s', 0)}; latency p50 ${fmt(f.latencyMs.p50, ' ms')}, p95 ${fmt(f.latencyMs.p95, ' ms')}, max ${fmt(f.latencyMs.max, ' ms')}; prompt → first chunk ${fmt(f.promptToFirstMs, ' ms')} (agent wrote it after ${fmt(f.promptToWrittenMs, ' ms')})`;
}

const medianOf = (runs, pick) => median(runs.map(pick));

function summarise(runs) {
  if (runs.length === 0) return undefined;
  return {
    runs: runs.length,
    arrivedPerSec: medianOf(runs, (r) => r.arrivedPerSec),
    writtenPerSec: medianOf(runs, (r) => r.writtenPerSec),
    p50Ms: medianOf(runs, (r) => r.latencyMs.p50),
    p95Ms: medianOf(runs, (r) => r.latencyMs.p95),
    promptToFirstMs: medianOf(runs, (r) => r.promptToFirstMs),
    fps: medianOf(runs, (r) => r.frames?.fps),
    all: runs,
  };
}

/**
 * Runs the rounds on a production build (made here unless `prodRoot` is given) with a fresh host home. Returns the
 * figures; throws when something could not be measured at all. `pageReady()` says whether the renderer has the ACP
 * conversation card (else the page reader is skipped, with the reason).
 */
export async function measureAcp({ root, prodRoot, compareRoot = process.env.BENCH_COMPARE_ROOT, log }) {
  const dirs = [];
  const hosts = [];
  let browser;
  /** A host of `appRoot` on a fresh home with the flood agent installed, and a session for the host reader. */
  const openHost = async (appRoot, name, nodeArgs = []) => {
    const home = tempDir('acp-home');
    dirs.push(home);
    const agent = installFloodAgent(home);
    const host = await startHost(appRoot, home, process.env, nodeArgs);
    const rpc = await HostRpc.connect(host.port, host.token);
    const entry = { name, appRoot, host, rpc, agent, hosted: [], paged: [] };
    hosts.push(entry);
    entry.sessionId = (await rpc.call('session.create', { workspace, name: 'acp bench' })).id;
    return entry;
  };
  const workspace = tempDir('acp-workspace');
  dirs.push(workspace);
  try {
    const appRoot = prodRoot ?? productionBuild(root);
    if (!prodRoot) dirs.push(appRoot);
    const main = await openHost(appRoot, 'this', HOST_PROF ? ['--cpu-prof', `--cpu-prof-dir=${HOST_PROF}`] : []);
    if (compareRoot) {
      // An A/B in one run: a production build of the other checkout, its rounds alternating with this one's.
      const compareApp = productionBuild(compareRoot);
      dirs.push(compareApp);
      await openHost(compareApp, 'compare');
      log(`  A/B: also measuring a production build of ${compareRoot}`);
    }
    const pageWhy = READERS.has('page') ? hosts.map((h) => rendererWhy(h.appRoot)).find(Boolean) ?? null : 'not asked for (BENCH_ACP)';
    if (pageWhy) log(`  page reader skipped: ${pageWhy}`);
    else browser = await launchChromium();
    const bare = [];
    log(`  ${RUNS} rounds of ${CHUNKS} chunks at ${RATE}/s; order within a round flips every round`);
    for (let i = 0; i < RUNS; i++) {
      const order = [];
      for (const reader of ['bare', 'host', 'page']) {
        if (!READERS.has(reader) || (reader === 'page' && !browser)) continue;
        if (reader === 'bare') order.push({ reader });
        else for (const h of hosts) order.push({ reader, h });
      }
      if (i % 2 === 1) order.reverse();
      for (const { reader, h } of order) {
        const label = hosts.length > 1 && h ? ` [${h.name}]` : '';
        if (reader === 'bare') {
          const f = await bareFlood(main.agent, workspace);
          bare.push(f);
          log(`  ${describe('bare client', f)}`);
        } else if (reader === 'host') {
          const f = await hostFlood({ host: h.host, rpc: h.rpc, sessionId: h.sessionId });
          h.hosted.push(f);
          log(`  ${describe(`host RPC${label} (agent ${f.sandboxed ? 'sandboxed' : 'plain'})`, f)}; host CPU ${f.hostCpuMs} ms`);
        } else {
          const f = await pageFlood({ browser, host: h.host, workspace, log });
          h.paged.push(f);
          log(
            `  ${describe(`page DOM${label}`, f)} (after the click: the host stored the prompt at ${fmt(f.promptStoredMs, ' ms', 0)} and committed it at ${fmt(f.promptCommittedMs, ' ms', 0)}, the first chunk reached the page's socket at ${fmt(f.firstChunkAtPageMs, ' ms', 0)}); ${fmt(f.frames.fps)} fps (p95 frame ${fmt(f.frames.p95Ms, ' ms')}), ` +
              `${f.domUpdates} DOM updates; CPU ms host ${f.cpuMs.host}, renderer ${f.cpuMs.renderer}, browser ${f.cpuMs.browser}`,
          );
        }
      }
    }
    for (const h of hosts) {
      h.rpc.close();
      await h.host.stop();
    }
    const hostProfile = HOST_PROF ? summariseHostProfile(HOST_PROF, appRoot, log) : undefined;
    const compare = hosts[1];
    return {
      goals: ACP_GOALS,
      hostProfile,
      rate: RATE,
      chunks: CHUNKS,
      sandboxed: (main.hosted[0] ?? main.paged[0])?.sandboxed,
      loadAverage: loadavg()[0],
      pageSkipped: pageWhy,
      bare: summarise(bare),
      host: summarise(main.hosted),
      page: summarise(main.paged),
      compare: compare ? { root: compareRoot, host: summarise(compare.hosted), page: summarise(compare.paged) } : undefined,
    };
  } finally {
    await browser?.close();
    for (const h of hosts) {
      h.rpc.close();
      await h.host.stop();
    }
    for (const dir of dirs) removeDir(dir);
  }
}

/**
 * The host's main-thread profile in `dir` (written when it stopped; each thread writes one, named
 * CPU.<date>.<time>.<pid>.<thread>.<n>: the main thread is thread 0), by module of its bundle; printed.
 */
function summariseHostProfile(dir, appRoot, log) {
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).map((f) => join(dir, f)) : [];
  if (files.length === 0) return { error: `no .cpuprofile in ${dir}` };
  const main = files.filter((f) => /\.\d+\.0\.\d+\.cpuprofile$/.test(f));
  const file = (main.length > 0 ? main : files).sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
  const bundle = join(appRoot, 'dist/cli/omni.cjs');
  const map = existsSync(`${bundle}.map`) ? JSON.parse(readFileSync(`${bundle}.map`, 'utf8')) : undefined;
  const summary = summariseProfile(JSON.parse(readFileSync(file, 'utf8')), { 'dist/cli/omni.cjs': { text: readFileSync(bundle, 'utf8'), map } });
  const groups = Object.entries(summary.groups).filter(([g]) => g !== '(idle)').slice(0, 12).map(([g, ms]) => `${g} ${fmt(ms, ' ms', 0)}`);
  log(`  host CPU profile (${file}): ${groups.join(', ')}`);
  log(summary.top.filter(([w]) => !w.startsWith('(idle')).map(([w, ms]) => `    ${fmt(ms, ' ms', 0).padStart(8)}  ${w}`).join('\n'));
  return { file, ...summary };
}

/** Why the page reader cannot run on this build (null when it can): the renderer has no ACP conversation card yet. */
function rendererWhy(appRoot) {
  try {
    const app = readFileSync(join(appRoot, 'dist/renderer/app.js'), 'utf8');
    return app.includes('acp-conversation') ? null : 'the renderer build has no ACP conversation card (data-testid="acp-conversation") yet';
  } catch (error) {
    return `no renderer build (${error.message})`;
  }
}

const verdict = (ok) => (ok === undefined ? '' : ok ? 'met' : 'NOT MET');

export function printAcp(r, log) {
  const g = ACP_GOALS;
  const { bare: b, host: h, page: p } = r;
  log(`\n0e. ACP conversation flood (production build, real host, agent ${r.sandboxed ? 'in the native sandbox' : 'plain'}; ${r.chunks} chunks at ${r.rate}/s, medians of ${(b ?? h ?? p)?.runs ?? 0} rounds; reference: a bare SDK client reading the same agent)`);
  const rows = [];
  if (b) rows.push(['bare client: chunks/s received / prompt → first chunk', `${fmt(b.arrivedPerSec, '/s', 0)} / ${fmt(b.promptToFirstMs, ' ms')}`, `(agent wrote ${fmt(b.writtenPerSec, '/s', 0)}; latency p95 ${fmt(b.p95Ms, ' ms')})`, '', '']);
  if (h) {
    rows.push(['host RPC (no page): chunks/s', fmt(h.arrivedPerSec, '/s', 0), ratioText(h.arrivedPerSec / b?.arrivedPerSec), '', '']);
    rows.push(['  write → acp.updates item latency p50 / p95', `${fmt(h.p50Ms, ' ms')} / ${fmt(h.p95Ms, ' ms')}`, '', '', '']);
    rows.push(['  prompt → first chunk, over the bare client', fmt(h.promptToFirstMs - b?.promptToFirstMs, ' ms'), '', '', '']);
  }
  if (p) {
    const ratio = p.arrivedPerSec / b?.arrivedPerSec;
    const overhead = p.promptToFirstMs - b?.promptToFirstMs;
    rows.push(['page: chunk → DOM latency p95', fmt(p.p95Ms, ' ms'), `p50 ${fmt(p.p50Ms, ' ms')}`, `≤ ${g.p95Ms} ms`, verdict(p.p95Ms <= g.p95Ms)]);
    rows.push(['  frames during the flood', `${fmt(p.fps)} fps`, '', `≥ ${g.fps} fps`, verdict(p.fps >= g.fps)]);
    rows.push(['  chunks/s reaching the DOM vs the bare client', fmt(p.arrivedPerSec, '/s', 0), ratioText(ratio), `≥ ${g.rateRatio.toFixed(2)}×`, verdict(ratio >= g.rateRatio)]);
    rows.push(['  prompt → first chunk in the DOM, over the bare client', `${fmt(overhead, ' ms')} (${fmt(p.promptToFirstMs, ' ms')})`, '', `≤ ${g.firstChunkOverheadMs} ms`, verdict(overhead <= g.firstChunkOverheadMs)]);
  } else {
    rows.push(['page: chunk → DOM latency p95', 'not measured', r.pageSkipped ?? '', `≤ ${g.p95Ms} ms`, '']);
    rows.push(['  frames during the flood', 'not measured', '', `≥ ${g.fps} fps`, '']);
    rows.push(['  chunks/s reaching the DOM vs the bare client', 'not measured', '', `≥ ${g.rateRatio.toFixed(2)}×`, '']);
    rows.push(['  prompt → first chunk in the DOM, over the bare client', 'not measured', '', `≤ ${g.firstChunkOverheadMs} ms`, '']);
  }
  const c = r.compare;
  if (c) {
    const pair = (label, ours, theirs, unit, digits = 1) => rows.push([`A/B ${label}`, `${fmt(ours, unit, digits)} vs ${fmt(theirs, unit, digits)}`, `this checkout vs ${c.root}`, '', '']);
    if (h && c.host) {
      pair('host RPC chunks/s', h.arrivedPerSec, c.host.arrivedPerSec, '/s', 0);
      pair('host RPC latency p95', h.p95Ms, c.host.p95Ms, ' ms');
    }
    if (p && c.page) {
      pair('page chunks/s', p.arrivedPerSec, c.page.arrivedPerSec, '/s', 0);
      pair('page latency p95', p.p95Ms, c.page.p95Ms, ' ms');
      pair('page fps', p.fps, c.page.fps, '');
      pair('page prompt → first chunk', p.promptToFirstMs, c.page.promptToFirstMs, ' ms');
    }
  }
  log(table(['', 'figure', 'reference / detail', 'goal', ''], rows));
}
