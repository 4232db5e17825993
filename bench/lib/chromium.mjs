// Chromium started directly (no Playwright: its tracing slows WebSocket streams several times over, see
// docs/performance.md#how-to-read-these-figures) and driven over the DevTools protocol with a plain `ws` client.
// CDP without tracing or the Network domain does not slow the page.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { adopt, removeDir, stop, tempDir } from './cleanup.mjs';

export const CHROMIUM = process.env.BENCH_CHROMIUM ?? '/usr/bin/chromium';

// The flags Debian's Chromium needs here, shared with the e2e tests (scripts/chromiumFlags.json): among them, no
// omnibox popup WebUI renderer per window competing with the measured page for the CPU (docs/performance.md).
const FLAGS = [
  '--headless',
  ...JSON.parse(readFileSync(new URL('../../scripts/chromiumFlags.json', import.meta.url), 'utf8')),
  '--disable-quic',
  '--disable-extensions',
  '--disable-default-apps',
  '--mute-audio',
  '--window-size=1280,800',
  '--remote-debugging-port=0',
  '--remote-allow-origins=*',
];

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A minimal CDP connection: commands with ids, events with optional flat-session ids. */
class CdpConnection {
  constructor(socket) {
    this.socket = socket;
    this.nextId = 1;
    this.pending = new Map();
    this.listeners = new Set();
    this.closed = false;
    socket.on('message', (raw) => {
      const msg = JSON.parse(String(raw));
      if (msg.id !== undefined) {
        const call = this.pending.get(msg.id);
        if (!call) return;
        this.pending.delete(msg.id);
        if (msg.error) call.reject(new Error(`CDP ${call.method}: ${msg.error.message}${msg.error.data ? ` (${msg.error.data})` : ''}`));
        else call.resolve(msg.result);
      } else {
        for (const listener of this.listeners) listener(msg);
      }
    });
    socket.on('close', () => {
      this.closed = true;
      for (const call of this.pending.values()) call.reject(new Error(`CDP ${call.method}: connection closed`));
      this.pending.clear();
    });
  }

  static connect(url) {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { perMessageDeflate: false, maxPayload: 512 * 1024 * 1024 });
      socket.once('open', () => resolve(new CdpConnection(socket)));
      socket.once('error', reject);
    });
  }

  send(method, params = {}, sessionId) {
    if (this.closed) return Promise.reject(new Error(`CDP ${method}: connection closed`));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { method, resolve, reject });
      this.socket.send(JSON.stringify(sessionId ? { id, method, params, sessionId } : { id, method, params }));
    });
  }

  /** Calls `fn(params)` for events named `method` (of `sessionId` when given); returns an unsubscribe function. */
  on(method, fn, sessionId) {
    const listener = (msg) => {
      if (msg.method === method && (sessionId === undefined || msg.sessionId === sessionId)) fn(msg.params);
    };
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close() {
    this.socket.close();
  }
}

/** One tab, attached with a flat session. */
export class CdpPage {
  constructor(cdp, sessionId) {
    this.cdp = cdp;
    this.sessionId = sessionId;
  }

  send(method, params = {}) {
    return this.cdp.send(method, params, this.sessionId);
  }

  on(method, fn) {
    return this.cdp.on(method, fn, this.sessionId);
  }

  /** Evaluates `expression` in the page's main world (CDP is not subject to the page's CSP) and returns its value. */
  async evaluate(expression, { awaitPromise = false, timeoutMs } = {}) {
    const params = { expression, returnByValue: true, awaitPromise };
    if (timeoutMs !== undefined) params.timeout = timeoutMs;
    const { result, exceptionDetails } = await this.send('Runtime.evaluate', params);
    if (exceptionDetails) {
      const text = exceptionDetails.exception?.description ?? exceptionDetails.text;
      throw new Error(`page evaluation failed: ${text}`);
    }
    return result.value;
  }

  /** Polls `expression` until it is truthy (returns that value) or throws after `timeoutMs` with `what` in the message. */
  async waitFor(expression, what, timeoutMs = 15_000, intervalMs = 25) {
    const deadline = Date.now() + timeoutMs;
    let lastError;
    while (Date.now() < deadline) {
      try {
        const value = await this.evaluate(expression);
        if (value) return value;
      } catch (error) {
        lastError = error; // The page may be between documents while navigating.
      }
      await sleep(intervalMs);
    }
    throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastError ? ` (last error: ${lastError.message})` : ''}`);
  }

  async navigate(url) {
    const result = await this.send('Page.navigate', { url });
    if (result.errorText) throw new Error(`navigation to ${url} failed: ${result.errorText}`);
  }
}

/** Reads utime+stime (ms) of every live process in a process group, keyed by role. */
export function groupCpu(pgid) {
  const roles = {};
  /** The renderer's CPU by thread name (CrRendererMain, Compositor, ...). */
  const threads = {};
  let total = 0;
  for (const entry of readdirNumeric('/proc')) {
    const stat = readStat(entry);
    if (!stat || stat.pgrp !== pgid) continue;
    let role = 'browser';
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      const type = /--type=([a-z-]+)/.exec(cmd);
      if (type) role = type[1];
    } catch {
      continue;
    }
    roles[role] = (roles[role] ?? 0) + stat.cpuMs;
    total += stat.cpuMs;
    if (role === 'renderer') {
      for (const tid of readdirNumeric(`/proc/${entry}/task`)) {
        const thread = readStat(`${entry}/task/${tid}`);
        let name = '?';
        try {
          name = readFileSync(`/proc/${entry}/task/${tid}/comm`, 'utf8').trim();
        } catch {
          continue;
        }
        if (thread) threads[name] = (threads[name] ?? 0) + thread.cpuMs;
      }
    }
  }
  return { total, roles, threads };
}

function readdirNumeric(dir) {
  try {
    return readdirSync(dir).filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
}

const TICK_MS = 10; // CLK_TCK is 100 on Linux.

/** utime+stime (and the reaped children's cutime+cstime) of one process, in ms; undefined when it is gone. */
export function readStat(pid) {
  let text;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name is in parentheses and may contain spaces: split after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state); utime is field 14 → index 11.
  const num = (field) => Number(fields[field - 3]);
  return {
    ppid: num(4),
    pgrp: num(5),
    cpuMs: (num(14) + num(15)) * TICK_MS,
    childrenCpuMs: (num(16) + num(17)) * TICK_MS,
  };
}

/** Starts a headless Chromium with its own profile and attaches to its first tab. */
export async function launchChromium() {
  const profile = tempDir('chromium');
  const child = spawn(CHROMIUM, [...FLAGS, `--user-data-dir=${profile}`, 'about:blank'], {
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  adopt(child, 'group');
  let stderr = '';
  child.stderr.on('data', (d) => {
    if (stderr.length < 20_000) stderr += d;
  });
  const portFile = join(profile, 'DevToolsActivePort');
  const deadline = Date.now() + 20_000;
  while (!existsSync(portFile) || readFileSync(portFile, 'utf8').split('\n').length < 2) {
    if (child.exitCode !== null) throw new Error(`chromium exited with ${child.exitCode} before it was ready:\n${stderr.slice(-2000)}`);
    if (Date.now() > deadline) throw new Error(`chromium did not open its DevTools port within 20 s:\n${stderr.slice(-2000)}`);
    await sleep(20);
  }
  const [port, path] = readFileSync(portFile, 'utf8').split('\n');
  const cdp = await CdpConnection.connect(`ws://127.0.0.1:${port}${path.trim()}`);
  let pageTarget;
  for (let i = 0; i < 100 && !pageTarget; i++) {
    const { targetInfos } = await cdp.send('Target.getTargets');
    pageTarget = targetInfos.find((t) => t.type === 'page');
    if (!pageTarget) await sleep(20);
  }
  if (!pageTarget) pageTarget = { targetId: (await cdp.send('Target.createTarget', { url: 'about:blank' })).targetId };
  const { sessionId } = await cdp.send('Target.attachToTarget', { targetId: pageTarget.targetId, flatten: true });
  const page = new CdpPage(cdp, sessionId);
  await page.send('Page.enable');
  await page.send('Runtime.enable');
  return {
    page,
    cdp,
    pid: child.pid,
    /** CPU used so far by the browser's processes, by role (browser, renderer, gpu-process, utility, zygote). */
    cpu: () => groupCpu(child.pid),
    async close() {
      try {
        await cdp.send('Browser.close');
      } catch {
        // Fall through to the signal.
      }
      cdp.close();
      await stop(child, 2000);
      removeDir(profile);
    },
  };
}
