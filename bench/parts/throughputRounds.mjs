// The terminal throughput part's rounds: every round measures each product variant and both bare pages, in an
// order that flips every round, then the PTY run card. Rates are medians over the rounds; ratios are medians of
// each round's own ratio.
//
// Two bare xterm.js pages, both fed by a raw WebSocket from Node:
// - REFERENCE (the goal's): fed by the same PTY child as the product — `cat FILE` in a node-pty of the card's size,
//   its output passed on as it is read (gathered for at most 5 ms, as the product does, so the page gets few large
//   writes). This is the minimal terminal the product's path (pty → host → bridge → card) is weighed against.
// - CEILING: the same page fed the same characters from memory in 64 KB messages, no PTY: how fast xterm.js parses
//   on this machine when nothing produces the characters. The pty itself (cat, the kernel's line discipline, ~4 KB
//   per read, on the same two cores) costs a bare page a good part of this, so no PTY terminal reaches it
//   (docs/performance.md#terminal-throughput).
import { median } from '../lib/stats.mjs';

/**
 * bench: ThroughputBench; alt: a second ThroughputBench for BENCH_COMPARE_ROOT (or undefined); variants: Set of
 * 'shipped' / 'dom'; referencePageSource: the bare page's bundle (for the diagnostic profile).
 */
export async function measureThroughputRounds({ bench, alt, compareRoot, variants, runs, diagnostics, tracing, referencePageSource, log }) {
  const product = [];
  const productDom = [];
  const compare = [];
  const reference = [];
  const ceiling = [];
  const runCard = [];
  const compareRunCard = [];
  // The run card gets the renderer the terminal figure it is printed next to has (as shipped unless only DOM runs).
  const runCardRenderer = variants.has('shipped') ? 'auto' : 'dom';
  // One flood of each kind first, not counted: a fresh host's first flood runs JIT-cold code and grows its database
  // file from nothing, which the long-running host a user has does not; the bare page's server gets the same.
  const warmUp = [await bench.product({ renderer: variants.has('shipped') ? 'auto' : 'dom' }), await bench.referenceRun('warm-up', { source: 'pty' })];
  if (alt) warmUp.push(await alt.product({ renderer: variants.has('dom') ? 'dom' : 'auto' }));
  log(`  warm-up (not counted): ${warmUp.map(rate).join(', ')}`);
  // Where the shipped renderer is xterm's DOM renderer (no hardware WebGL: this machine, CI), forcing it changes
  // nothing, so that variant is not measured again; its floods go to more rounds instead.
  let measureDom = variants.has('dom');
  if (measureDom && variants.has('shipped') && warmUp[0].renderer === 'dom') {
    measureDom = false;
    log('  the product as shipped uses the DOM renderer here (no hardware WebGL), so "DOM renderer forced" is the same and not measured apart');
  }
  for (let i = 0; i < runs; i++) {
    const sides = [];
    if (variants.has('shipped')) sides.push(async () => product.push(await bench.product()));
    if (measureDom) sides.push(async () => productDom.push(await bench.product({ renderer: 'dom' })));
    if (alt) sides.push(async () => compare.push(await alt.product({ renderer: variants.has('dom') ? 'dom' : 'auto' })));
    sides.push(async () => reference.push(await bench.referenceRun(`pty${i}`, { source: 'pty' })));
    sides.push(async () => ceiling.push(await bench.referenceRun(`memory${i}`)));
    // Every other round in the opposite order: a side measured always first comes out ahead by itself (an A/A run,
    // the same build on both sides; cause not found: docs/performance.md#how-to-read-these-figures), so no side keeps
    // a place.
    for (const side of i % 2 === 0 ? sides : sides.toReversed()) await side();
    if (alt) log(`  run ${i + 1}/${runs}: compare build ${rate(compare.at(-1))}`);
    log(
      `  run ${i + 1}/${runs}: ` +
        (product.length ? `product ${rate(product.at(-1))} [${product.at(-1).renderer}], ` : '') +
        (productDom.length ? `product with DOM renderer ${rate(productDom.at(-1))}, ` : '') +
        `reference (PTY-fed bare page) ${rate(reference.at(-1))}, ceiling (memory-fed) ${rate(ceiling.at(-1))}   (${bench.geometry.cols}x${bench.geometry.rows})`,
    );
    // The run card of both builds in an A/B, in an order that flips every round like the terminal sides.
    const cards = [{ of: bench, into: runCard, label: '' }];
    if (alt) cards.push({ of: alt, into: compareRunCard, label: 'compare build: ' });
    for (const card of i % 2 === 0 ? cards : cards.toReversed()) {
      try {
        card.into.push(await card.of.runCard({ renderer: runCardRenderer }));
        const c = card.into.at(-1);
        log(`  run ${i + 1}/${runs}: ${card.label}PTY run → run card ${rate(c)} from spawn (first byte after ${c.firstByteMs.toFixed(0)} ms; ${c.streamMbPerSec.toFixed(1)} MB/s from it) [${c.renderer}]`);
      } catch (error) {
        card.into.push({ error: error.message });
        log(`  run ${i + 1}/${runs}: ${card.label}PTY run → run card could not be measured: ${String(error.message).split('\n')[0]}`);
      }
    }
  }
  const mbps = (list) => median(list.map((r) => r.mbPerSec));
  const result = {
    payload: { bytes: bench.payload.bytes, lines: bench.payload.lines, charsParsed: bench.payload.crlf.length },
    geometry: bench.geometry,
    xtermOptions: bench.xtermOptions,
    productRenderer: product[0]?.renderer,
    productGl: product[0]?.gl,
    productMbPerSec: mbps(product),
    productDomMbPerSec: mbps(productDom),
    referenceMbPerSec: mbps(reference),
    referenceSelfTimedMbPerSec: median(reference.map((r) => r.selfTimed?.mbPerSec)),
    ceilingMbPerSec: mbps(ceiling),
    runCardMbPerSec: mbps(runCard.filter((r) => !r.error)),
    runCardStreamMbPerSec: median(runCard.map((r) => r.streamMbPerSec)),
    runCardFirstByteMs: median(runCard.map((r) => r.firstByteMs)),
    runs: { product, productDom, reference, ceiling, compare, runCard, compareRunCard },
  };
  // Each side's ratio is the median of its rounds' own ratios: a run over the reference run of the same round, the
  // two measured minutes apart at most in an order that flips every round. This machine's speed drifts from one
  // flood to the next and more across a bench run; a ratio within one round cancels the slow drift, which a
  // ratio of the medians over the whole run does not. That one is kept beside it (ratioOfMedians).
  const paired = (list, against = reference) => median(list.map((r, i) => r.mbPerSec / against[i].mbPerSec));
  result.ratio = paired(product);
  result.domRatio = paired(productDom);
  result.ceilingReferenceRatio = paired(ceiling);
  result.ceilingRatio = paired(variants.has('shipped') ? product : productDom, ceiling);
  result.referenceCeilingRatio = paired(reference, ceiling);
  result.ratioOfMedians = {
    product: result.productMbPerSec / result.referenceMbPerSec,
    productDom: result.productDomMbPerSec / result.referenceMbPerSec,
  };
  result.runCardRatio = result.runCardMbPerSec / result.referenceMbPerSec;
  if (alt) {
    result.compare = { root: compareRoot, mbPerSec: mbps(compare) };
    result.compare.ratio = paired(compare);
    // Each round's run card over that round's own reference, as the terminal ratios: the A/B of the run card.
    const pairedCards = (list) => median(list.map((r, i) => (r.error ? undefined : r.mbPerSec / reference[i].mbPerSec)).filter((v) => v !== undefined));
    result.compare.runCardMbPerSec = mbps(compareRunCard.filter((r) => !r.error));
    result.compare.runCardRatio = pairedCards(compareRunCard);
    result.compare.productRunCardRatio = pairedCards(runCard);
  }
  if (diagnostics) {
    log('  diagnostics (not counted): a product run (DOM renderer) with a WebSocket probe and the CPU profiler, a profiled PTY-fed reference run');
    result.diagnostics = {
      product: await bench.product({ profile: true, probe: true, trace: tracing, renderer: 'dom' }),
      reference: await bench.referenceRun('diag', { source: 'pty', profile: true, trace: tracing, profileSources: { '/page.js': referencePageSource } }),
    };
  }
  return result;
}

function rate(r) {
  return `${r.mbPerSec.toFixed(1)} MB/s${r.capped ? ` (capped: ${(r.chars / 1e6).toFixed(1)} MB)` : ''}`;
}
