// Prints the agent output cards part of `npm run bench` (agentCards.mjs measures it).
import { cpus } from 'node:os';
import { fmt, ratioText, table, verdict } from '../lib/stats.mjs';
import { AGENT_CARD_GOALS } from './agentCards.mjs';

export function printAgentCards(r, log) {
  const { flood: f, million: m } = r;
  const g = AGENT_CARD_GOALS;
  const reference = f ? `; references: the same flood into a bare page over a raw WebSocket, and the idle page's ${fmt(f.median.idleFps)} fps` : '';
  log(`\n0c. Agent output cards (production build, real host, WASM agent${reference})`);
  const floodRows = f
    ? [
        [`flood: ${f.chunks} one-line chunks (median of ${f.runs} runs), agent emitted`, fmt(f.median.emittedPerSec, ' /s', 0), `${g.floodChunksPerSec} /s`, verdict(f.median.emittedPerSec >= 0.97 * g.floodChunksPerSec)],
        ['  reached the DOM', fmt(f.median.domPerSec, ' /s', 0), `${g.floodChunksPerSec} /s`, verdict(f.median.domPerSec >= 0.97 * g.floodChunksPerSec)],
        ['  emit → DOM latency p50', `${fmt(f.median.p50Ms, ' ms')} (reference ${fmt(f.reference.p50Ms, ' ms')})`, '', ''],
        [
          '  emit → DOM latency p95',
          `${fmt(f.median.p95Ms, ' ms')} (reference ${fmt(f.reference.p95Ms, ' ms')}: ${ratioText(f.median.p95Ms / f.reference.p95Ms)})`,
          `≤ ${g.floodP95RefRatio}× the reference, < ${g.floodP95Ms} ms`,
          verdict(f.median.p95Ms <= g.floodP95RefRatio * f.reference.p95Ms && f.median.p95Ms < g.floodP95Ms),
        ],
        ['  frames during the flood', `${fmt(f.median.fps)} fps (reference ${fmt(f.reference.fps)} fps)`, `≥ ${g.floodFps} fps`, verdict(f.median.fps >= g.floodFps)],
        ['  each run: p95 latency / fps / load average', f.all.map((r) => `${fmt(r.latencyMs.p95, '', 0)} ms / ${fmt(r.fps, '', 0)} / ${fmt(r.loadAverage)}`).join(', '), '', ''],
      ]
    : [];
  const millionRows = m
    ? [
        [`million-line card: streamed in`, fmt(m.streamMs / 1000, ' s', 2), '', ''],
        ['  opened again (page load → all lines)', fmt(m.openMs / 1000, ' s', 2), '', ''],
        ['  top → bottom: last row shown', fmt(m.bottomMs, ' ms'), '', ''],
        [`  random jumps → rows shown (p95 of ${m.jumps.count})`, fmt(m.jumps.p95Ms, ' ms'), '', ''],
        ['  wheel scrolling', `${fmt(m.wheel.frames.fps)} fps, p95 frame ${fmt(m.wheel.frames.p95Ms, ' ms')}`, `≥ ${g.scrollFps} fps`, verdict(m.wheel.frames.fps >= g.scrollFps)],
      ]
    : [];
  log(table(['', 'figure', 'goal', ''], [...floodRows, ...millionRows]));
  const busiest = Math.max(...(f?.all ?? []).map((run) => run.loadAverage));
  if (busiest > cpus().length) {
    log(`  note: the machine was busy with other work (load average up to ${fmt(busiest)} on ${cpus().length} cores): the flood's frames and latency show that more than this code`);
  }
}
