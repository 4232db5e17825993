// Terminal throughput end to end. Product: `cat FILE` in a pty → host → RPC stream with credit → the renderer's
// terminal card → xterm.js. Reference: a bare xterm.js page fed by a raw WebSocket from Node, with the same `cat` in
// a pty (source 'pty', the goal's reference) or the same characters from memory (source 'memory', a ceiling);
// throughputRounds.mjs says why both.
// Both pages keep `window.__omniTerminalStats[id].bytesParsed` (updated in xterm's write callback) and both are
// measured by the same poller, evaluated over CDP: first change of the counter → counter reaches the target.
// Also in the same run and Chromium: the same `cat` as a PTY run of the shell tool into its run card, whose xterm
// keeps the same counter (keyed by run id), timed from spawn (runCardThroughput.mjs).
import { readFileSync } from 'node:fs';
import { launchChromium, readStat } from '../lib/chromium.mjs';
import { fetchBundle, summariseProfile } from '../lib/profile.mjs';
import { startTrace, stopTrace, summariseTrace } from '../lib/trace.mjs';
import { MB, median } from '../lib/stats.mjs';
import { measureRunCard } from './runCardThroughput.mjs';

/** A run stops after this long and reports the rate over what was parsed so far (a slow product stays bounded). */
const RUN_CAP_MS = Number(process.env.BENCH_RUN_CAP_MS ?? 12_000);
const POLL_MS = 2;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Installs the poller in the page and returns immediately; `window.__benchRun` resolves with the timings once
 * `need` more characters have been parsed for terminal `id`, or RUN_CAP_MS after the first one with what was parsed.
 */
function startMeasuring(id, need) {
  return `(() => {
    const id = ${JSON.stringify(id)}, need = ${need}, capMs = ${RUN_CAP_MS}, startTimeoutMs = 15000;
    const read = () => { const s = window.__omniTerminalStats && window.__omniTerminalStats[id]; return s ? s.bytesParsed : 0; };
    const base = read();
    const startedAt = performance.now();
    let t0;
    let polls = 0;
    window.__benchRun = new Promise((resolve) => {
      const tick = () => {
        const now = performance.now();
        const parsed = read() - base;
        polls++;
        if (t0 === undefined && parsed > 0) t0 = now;
        if (parsed >= need || (t0 !== undefined && now - t0 > capMs) || (t0 === undefined && now - startedAt > startTimeoutMs)) {
          resolve({ t0: t0 === undefined ? now : t0, t1: now, parsed, need, capped: parsed < need, polls, startedAt });
          return;
        }
        setTimeout(tick, ${POLL_MS});
      };
      setTimeout(tick, 0);
    });
    return base;
  })()`;
}

/** Waits until the counter for `id` exists and has not moved for `quietMs` (prompt drawn, replay parsed). */
async function settle(page, id, quietMs = 400, timeoutMs = 15_000) {
  const expr = `(window.__omniTerminalStats && window.__omniTerminalStats[${JSON.stringify(id)}] || { bytesParsed: -1 }).bytesParsed`;
  const deadline = Date.now() + timeoutMs;
  let last = -2;
  let since = Date.now();
  while (Date.now() < deadline) {
    const value = await page.evaluate(expr).catch(() => -1);
    if (value !== last) {
      last = value;
      since = Date.now();
    } else if (value >= 0 && Date.now() - since >= quietMs) return value;
    await sleep(50);
  }
  throw new Error(`terminal ${id} did not settle within ${timeoutMs} ms (counter ${last})`);
}

/** The renderer's documented switch to xterm's DOM renderer (webglRenderer.ts), set before any page script runs. */
const FORCE_DOM_RENDERER = `try { localStorage.setItem('omni.terminal.renderer', 'dom'); } catch {}`;

/** Page-side WebSocket instrumentation for the diagnostic run only: frame counts, sizes, credit, gaps. */
const WS_PROBE = `(() => {
  const Native = window.WebSocket;
  const probe = (window.__benchWs = { on: false, recv: [], sent: [] });
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (e) => {
        if (probe.on) probe.recv.push([performance.now(), typeof e.data === 'string' ? e.data.length : (e.data.byteLength ?? 0) - 5]);
      });
    }
    send(data) {
      if (probe.on && typeof data === 'string' && data.startsWith('{"t":"credit"')) {
        const m = /"credit":(\\d+)/.exec(data);
        probe.sent.push([performance.now(), m ? Number(m[1]) : 0]);
      }
      return super.send(data);
    }
  };
})()`;

function summariseProbe(probe, t0, t1) {
  const recv = probe.recv.filter(([t]) => t >= t0 - 50 && t <= t1 + 5);
  const sizes = recv.map(([, n]) => n).sort((a, b) => a - b);
  let gapsOver5 = 0;
  let gapTime = 0;
  let maxGap = 0;
  for (let i = 1; i < recv.length; i++) {
    const gap = recv[i][0] - recv[i - 1][0];
    maxGap = Math.max(maxGap, gap);
    if (gap > 5) {
      gapsOver5++;
      gapTime += gap;
    }
  }
  // Credit round trip: from a credit frame to the next message that arrives after it.
  const rtts = [];
  let j = 0;
  for (const [t] of probe.sent) {
    while (j < recv.length && recv[j][0] <= t) j++;
    if (j < recv.length) rtts.push(recv[j][0] - t);
  }
  return {
    frames: recv.length,
    frameChars: { median: median(sizes), p90: sizes[Math.floor(sizes.length * 0.9)] ?? NaN, max: sizes.at(-1) ?? NaN },
    creditFrames: probe.sent.length,
    creditPerFrame: median(probe.sent.map(([, c]) => c)),
    gapsOver5ms: gapsOver5,
    timeInGapsOver5msMs: gapTime,
    maxGapMs: maxGap,
    creditToNextFrameMs: median(rtts),
  };
}

/** What the renderer's settings are, so the reference xterm gets the same grid, font size and scrollback. */
export function rendererTerminalOptions(root) {
  const options = { scrollback: 1000, fontSize: 15, fontFamily: 'monospace', source: 'xterm defaults' };
  try {
    const src = readFileSync(`${root}/src-renderer/ui/screen/xtermScreen.ts`, 'utf8');
    const scrollback = /scrollback:\s*([\d_]+)/.exec(src);
    const fontSize = /fontSize:\s*(\d+)/.exec(src);
    const fontFamily = /fontFamily:\s*'([^']+)'/.exec(src);
    if (scrollback) options.scrollback = Number(scrollback[1].replaceAll('_', ''));
    if (fontSize) options.fontSize = Number(fontSize[1]);
    if (fontFamily) options.fontFamily = fontFamily[1];
    options.source = 'src-renderer/ui/screen/xtermScreen.ts';
  } catch {
    // Keep xterm's defaults.
  }
  return options;
}

export class ThroughputBench {
  /**
   * host: { url, port, child }, rpc: HostRpc, sessionId, payload: preparePayload(), reference: startReferenceServer(),
   * referenceBundle: { url → source } for profiling, home: the host's home (its database grows with run output).
   */
  constructor({ host, rpc, sessionId, payload, reference, xtermOptions, log, home }) {
    Object.assign(this, { host, rpc, sessionId, payload, reference, xtermOptions, log, home });
    this.geometry = { cols: 120, rows: 40 };
  }

  /** Opens a terminal through RPC, loads the app (it restores the selected session's cards) and waits for it. */
  async openProductTerminal(browser, { probe = false, renderer = 'auto' } = {}) {
    const terminal = await this.rpc.call('terminal.open', { sessionId: this.sessionId, cols: 120, rows: 40 });
    const { page } = browser;
    if (renderer === 'dom') await page.send('Page.addScriptToEvaluateOnNewDocument', { source: FORCE_DOM_RENDERER });
    if (probe) await page.send('Page.addScriptToEvaluateOnNewDocument', { source: WS_PROBE });
    await page.navigate(this.host.url);
    const card = `[data-testid="terminal-card"][data-terminal-id="${terminal.id}"]`;
    await page.waitFor(
      `!!document.querySelector('${card}') && !!(window.__omniTerminalStats && window.__omniTerminalStats['${terminal.id}'])`,
      `the terminal card of ${terminal.id} and its window.__omniTerminalStats entry`,
      20_000,
    );
    await settle(page, terminal.id);
    const info = (await this.rpc.call('terminal.list', { sessionId: this.sessionId })).find((t) => t.id === terminal.id);
    if (info) this.geometry = { cols: info.cols, rows: info.rows };
    // The xterm lives in the screen's (open) shadow root (screenRoot.ts).
    terminal.renderer = await page.evaluate(`document.querySelector('${card} .terminal-screen').shadowRoot.querySelector('.xterm canvas') ? 'webgl' : 'dom'`);
    if (terminal.renderer === 'webgl') {
      terminal.gl = await page.evaluate(`(() => {
        const gl = document.createElement('canvas').getContext('webgl2');
        const info = gl && gl.getExtension('WEBGL_debug_renderer_info');
        return info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : 'unknown';
      })()`);
    }
    return terminal;
  }

  async closeProductTerminal(terminal) {
    await this.rpc.call('terminal.close', { id: terminal.id }).catch(() => {});
  }

  async product({ profile = false, probe = false, trace = false, renderer = 'auto' } = {}) {
    const browser = await launchChromium();
    let terminal;
    try {
      terminal = await this.openProductTerminal(browser, { probe, renderer });
      const { page } = browser;
      const need = this.payload.crlf.length;
      const bash = (await this.rpc.call('terminal.list', { sessionId: this.sessionId })).find((t) => t.id === terminal.id)?.pid;
      if (profile) await startProfiler(page);
      if (trace) await startTrace(browser.cdp);
      if (probe) await page.evaluate('window.__benchWs.on = true');
      const before = { host: readStat(this.host.child.pid), shell: bash && readStat(bash), browser: browser.cpu() };
      await page.evaluate(startMeasuring(terminal.id, need));
      await this.rpc.call('terminal.input', { id: terminal.id, data: `cat ${this.payload.path}\r` });
      const run = await page.evaluate('window.__benchRun', { awaitPromise: true });
      await sleep(30); // Let cat exit so bash has reaped it and counts its CPU.
      const after = { host: readStat(this.host.child.pid), shell: bash && readStat(bash), browser: browser.cpu() };
      const result = this.result(run, before, after);
      result.cpuMs.shellAndCat = after.shell && before.shell ? after.shell.cpuMs + after.shell.childrenCpuMs - before.shell.cpuMs - before.shell.childrenCpuMs : NaN;
      result.cpuMs.host = after.host.cpuMs - before.host.cpuMs;
      result.renderer = terminal.renderer;
      if (terminal.gl) result.gl = terminal.gl;
      if (trace) result.trace = summariseTrace(await stopTrace(browser.cdp));
      if (probe) result.frames = summariseProbe(await page.evaluate('({ recv: window.__benchWs.recv, sent: window.__benchWs.sent })'), run.t0, run.t1);
      if (profile) {
        result.profile = summariseProfile(await stopProfiler(page), { '/app.js': await fetchBundle(new URL('/app.js', this.host.url).href) });
      }
      return result;
    } finally {
      await browser.close();
      if (terminal) await this.closeProductTerminal(terminal);
    }
  }

  /**
   * The same `cat` as a PTY run of the shell tool (exec.shell spawn, pty) into its run card, timed from spawn to the
   * last character parsed by the card's xterm (see runCardThroughput.mjs).
   */
  runCard({ renderer = 'auto' } = {}) {
    return measureRunCard({ host: this.host, rpc: this.rpc, sessionId: this.sessionId, home: this.home, payload: this.payload, capMs: RUN_CAP_MS, forceDom: renderer === 'dom' });
  }

  async referenceRun(name, { profile = false, trace = false, profileSources = {}, source = 'memory' } = {}) {
    const browser = await launchChromium();
    try {
      const { page } = browser;
      const need = this.payload.crlf.length;
      const { scrollback, fontSize, fontFamily } = this.xtermOptions;
      await page.navigate(this.reference.url({ mode: 'stream', run: name, bytes: need, ...this.geometry, scrollback, fontSize, fontFamily }));
      await this.reference.connected(name);
      await settle(page, 'reference');
      if (profile) await startProfiler(page);
      if (trace) await startTrace(browser.cdp);
      const serverCpu = process.cpuUsage();
      const before = { browser: browser.cpu() };
      await page.evaluate(startMeasuring('reference', need));
      if (source === 'pty') await this.reference.streamPty(name, this.payload.path, this.geometry);
      else await this.reference.stream(name);
      const run = await page.evaluate('window.__benchRun', { awaitPromise: true });
      const after = { browser: browser.cpu() };
      const result = this.result(run, before, after);
      if (trace) result.trace = summariseTrace(await stopTrace(browser.cdp));
      const cpu = process.cpuUsage(serverCpu);
      result.cpuMs.server = (cpu.user + cpu.system) / 1000;
      const self = await Promise.race([this.reference.result(name), sleep(2000).then(() => null)]);
      if (self?.ok) result.selfTimed = { ms: self.ms, mbPerSec: self.bytes / MB / (self.ms / 1000), messages: self.messages };
      if (profile) result.profile = summariseProfile(await stopProfiler(page), profileSources);
      return result;
    } finally {
      await browser.close();
    }
  }

  result(run, before, after) {
    const ms = run.t1 - run.t0;
    const roles = {};
    for (const [role, value] of Object.entries(after.browser.roles)) roles[role] = value - (before.browser.roles[role] ?? 0);
    const rendererThreads = {};
    for (const [name, value] of Object.entries(after.browser.threads)) rendererThreads[name] = value - (before.browser.threads[name] ?? 0);
    return {
      ms,
      chars: run.parsed,
      mbPerSec: run.parsed / MB / (ms / 1000),
      capped: run.capped,
      cpuMs: { browser: roles, rendererThreads },
    };
  }
}

async function startProfiler(page) {
  await page.send('Profiler.enable');
  await page.send('Profiler.setSamplingInterval', { interval: 500 });
  await page.send('Profiler.start');
}

async function stopProfiler(page) {
  const { profile } = await page.send('Profiler.stop');
  await page.send('Profiler.disable');
  return profile;
}
