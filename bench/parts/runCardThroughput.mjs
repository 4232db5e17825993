// PTY run output to its run card, end to end, as a user starts it: the Runs panel's form (PTY on) sends the host's
// `exec.shell` {action: 'spawn', pty: true, command: `cat PAYLOAD`} and opens the run's card at once; the card
// (RunTerminalCard → RunScreenController → the shared XtermScreen) replays the run's items and then follows them
// live through the `exec.items` stream with credit. Unlike a terminal, every chunk is also persisted on the way
// (exec_run_items in <home>/memory/sessions.db).
//
// Completion is detected as for the terminal measurement: the card's xterm keeps
// `window.__omniTerminalStats[runId].bytesParsed` (updated in xterm's write callback), and the run is over for the
// page when that counter reaches the payload's CRLF length (the PTY turns each LF into CRLF). Timed in the page
// from the moment the form is submitted (the spawn request leaves), so spawn → last byte is on one clock.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { launchChromium, readStat } from '../lib/chromium.mjs';
import { MB } from '../lib/stats.mjs';

const POLL_MS = 2;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Installs the poller and submits the form in the same task; `window.__benchRun` resolves once the new run's card
 * has parsed `need` characters, or `capMs` after its first one with what was parsed.
 */
function submitAndMeasure(viewSelector, need, capMs) {
  return `(() => {
    const need = ${need}, capMs = ${capMs}, startTimeoutMs = 15000;
    const view = document.querySelector(${JSON.stringify(viewSelector)});
    const cards = () => [...view.querySelectorAll('[data-testid="exec-run-card"]')].map((card) => card.dataset.runId);
    const before = new Set(cards());
    let runId;
    let cardAt;
    const read = () => {
      if (runId === undefined) {
        runId = cards().find((id) => !before.has(id));
        if (runId !== undefined) cardAt = performance.now();
      }
      const s = runId && window.__omniTerminalStats && window.__omniTerminalStats[runId];
      return s ? s.bytesParsed : 0;
    };
    const spawnedAt = performance.now();
    view.querySelector('[data-testid="exec-run-form"]').requestSubmit();
    let firstAt;
    window.__benchRun = new Promise((resolve) => {
      const tick = () => {
        const now = performance.now();
        const parsed = read();
        if (firstAt === undefined && parsed > 0) firstAt = now;
        if (parsed >= need || (firstAt !== undefined && now - firstAt > capMs) || (firstAt === undefined && now - spawnedAt > startTimeoutMs)) {
          resolve({ runId, spawnedAt, cardAt: cardAt ?? now, firstAt: firstAt ?? now, t1: now, parsed, need, capped: parsed < need });
          return;
        }
        setTimeout(tick, ${POLL_MS});
      };
      setTimeout(tick, 0);
    });
    return true;
  })()`;
}

/** Bytes of the host's session database with its WAL (what the run's items cost on disk). */
function databaseBytes(home) {
  let bytes = 0;
  for (const name of ['sessions.db', 'sessions.db-wal']) {
    try {
      bytes += statSync(join(home, 'memory', name)).size;
    } catch {
      // No WAL (checkpointed) or no database yet.
    }
  }
  return bytes;
}

/** The run's record once it has ended (kills it first if the page gave up on it, so it does not run on). */
async function endedRun(rpc, sessionId, runId, kill) {
  if (kill) await rpc.call('exec.shell', { action: 'kill', run_id: runId }).catch(() => {});
  const deadline = Date.now() + 15_000;
  for (;;) {
    const run = (await rpc.call('exec.runs', { sessionId })).find((r) => r.run_id === runId);
    if (!run) throw new Error(`the host does not list run ${runId} in session ${sessionId}`);
    if ((run.status !== 'queued' && run.status !== 'running') || Date.now() > deadline) return run;
    await sleep(100);
  }
}

/**
 * One measured PTY run into a freshly opened run card. `forceDom` is the renderer's documented switch
 * (webglRenderer.ts), as for the terminal's DOM variant. Returns MB/s from spawn to the last character parsed, and
 * from the first character parsed (the terminal measurement's own span) for comparison.
 */
export async function measureRunCard({ host, rpc, sessionId, home, payload, capMs, forceDom }) {
  const browser = await launchChromium();
  let runId;
  try {
    const { page } = browser;
    if (forceDom) await page.send('Page.addScriptToEvaluateOnNewDocument', { source: `try { localStorage.setItem('omni.terminal.renderer', 'dom'); } catch {}` });
    await page.navigate(host.url);
    const view = `[data-testid="session-view"][data-session-id="${sessionId}"]:not([hidden])`;
    const q = (selector) => JSON.stringify(`${view} ${selector}`);
    await page.waitFor(`!!document.querySelector(${q('[data-testid="exec-run-command"]:not([disabled])')})`, `the Runs panel of session ${sessionId}`, 20_000);
    await page.evaluate(`(() => { const pty = document.querySelector(${q('[data-testid="exec-run-pty"]')}); if (!pty.checked) pty.click(); })()`);
    const command = `cat ${payload.path}`;
    await page.evaluate(`document.querySelector(${q('[data-testid="exec-run-command"]')}).focus()`);
    await page.send('Input.insertText', { text: command });
    await page.waitFor(
      `document.querySelector(${q('[data-testid="exec-run-pty"]')}).checked && !document.querySelector(${q('[data-testid="exec-run-submit"]')}).disabled`,
      'the Run button enabled with PTY on',
      5_000,
    );
    const need = payload.crlf.length;
    const dbBefore = databaseBytes(home);
    const before = { host: readStat(host.child.pid), browser: browser.cpu() };
    await page.evaluate(submitAndMeasure(view, need, capMs));
    const run = await page.evaluate('window.__benchRun', { awaitPromise: true });
    runId = run.runId;
    const after = { host: readStat(host.child.pid), browser: browser.cpu() };
    if (!runId) throw new Error('no run card appeared after submitting the Runs form');
    // The card's xterm lives in its screen's (open) shadow root (screenRoot.ts).
    const screen = q(`[data-testid="exec-run-card"][data-run-id="${runId}"] .terminal-screen`);
    const renderer = await page.evaluate(`document.querySelector(${screen}).shadowRoot.querySelector('.xterm canvas') ? 'webgl' : 'dom'`);
    const record = await endedRun(rpc, sessionId, runId, run.capped);
    const roles = {};
    for (const [role, value] of Object.entries(after.browser.roles)) roles[role] = value - (before.browser.roles[role] ?? 0);
    const ms = run.t1 - run.spawnedAt;
    const streamMs = run.t1 - run.firstAt;
    return {
      runId,
      ms,
      chars: run.parsed,
      mbPerSec: run.parsed / MB / (ms / 1000),
      firstByteMs: run.firstAt - run.spawnedAt,
      /** Spawn → the card is in the DOM (the host has described the run to the page). */
      cardShownMs: run.cardAt - run.spawnedAt,
      streamMbPerSec: run.parsed / MB / (streamMs / 1000),
      capped: run.capped,
      renderer,
      cpuMs: { browser: roles, host: after.host.cpuMs - before.host.cpuMs },
      persisted: {
        status: record.status,
        exitCode: record.exit_code,
        outputBytes: record.output_bytes,
        items: record.last_seq,
        sandbox: record.sandbox,
        // Host-side: from the run's record to its process started (worker claim + PTY spawn), and to its end.
        startedAfterMs: record.started_at === null ? NaN : record.started_at - record.created_at,
        ranMs: record.ended_at === null || record.started_at === null ? NaN : record.ended_at - record.started_at,
        databaseGrowthBytes: databaseBytes(home) - dbBefore,
      },
    };
  } finally {
    await browser.close();
  }
}
