// A Chromium trace of the renderer's main thread, summarised as exclusive time per event (JS calls, style, layout,
// paint, message dispatch...): the part of "(program)" in a CPU profile that is the browser's own work.
// Tracing slows the page, so it is used only in diagnostic runs and only its proportions are reported.

const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'blink', 'toplevel'];

export async function startTrace(cdp) {
  await cdp.send('Tracing.start', {
    transferMode: 'ReturnAsStream',
    traceConfig: { recordMode: 'recordAsMuchAsPossible', includedCategories: CATEGORIES },
  });
}

export async function stopTrace(cdp) {
  const complete = new Promise((resolve) => {
    const off = cdp.on('Tracing.tracingComplete', (params) => {
      off();
      resolve(params);
    });
  });
  await cdp.send('Tracing.end');
  const { stream } = await complete;
  let text = '';
  for (;;) {
    const chunk = await cdp.send('IO.read', { handle: stream, size: 1 << 20 });
    text += chunk.base64Encoded ? Buffer.from(chunk.data, 'base64').toString('utf8') : chunk.data;
    if (chunk.eof) break;
  }
  await cdp.send('IO.close', { handle: stream });
  const parsed = JSON.parse(text);
  return Array.isArray(parsed) ? parsed : parsed.traceEvents;
}

/**
 * Exclusive (self) time per event name on the busiest renderer main thread ("CrRendererMain" of the page's
 * process). busyMs is the thread's busy time; the rest of spanMs it was idle. counts: how often each event occurred
 * (Paint or Commit: frames drawn).
 */
export function summariseTrace(events) {
  const mainThreads = new Set(
    events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`),
  );
  const byThread = new Map();
  for (const e of events) {
    if (e.ph !== 'X' || typeof e.dur !== 'number') continue;
    const key = `${e.pid}:${e.tid}`;
    if (!mainThreads.has(key)) continue;
    if (!byThread.has(key)) byThread.set(key, []);
    byThread.get(key).push(e);
  }
  let busiest = [];
  for (const list of byThread.values()) if (list.length > busiest.length) busiest = list;
  busiest.sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const frames = [];
  const stack = [];
  for (const e of busiest) {
    while (stack.length && stack.at(-1).end <= e.ts) stack.pop();
    const parent = stack.at(-1);
    const frame = { name: e.name, dur: e.dur, end: e.ts + e.dur, children: 0 };
    if (parent) parent.children += Math.min(e.dur, parent.end - e.ts);
    stack.push(frame);
    frames.push(frame);
  }
  const self = new Map();
  const counts = {};
  for (const f of frames) {
    self.set(f.name, (self.get(f.name) ?? 0) + Math.max(0, f.dur - f.children) / 1000);
    counts[f.name] = (counts[f.name] ?? 0) + 1;
  }
  const selfMs = Object.fromEntries([...self.entries()].sort((a, b) => b[1] - a[1]));
  const spanMs = busiest.length ? (busiest.reduce((m, e) => Math.max(m, e.ts + e.dur), 0) - busiest[0].ts) / 1000 : 0;
  const busyMs = Object.values(selfMs).reduce((a, b) => a + b, 0);
  return { spanMs, busyMs, selfMs, counts };
}
