// The outcome chips' colours (outcomeChip.css) keep WCAG AA contrast (4.5:1) for their text in both themes, and
// each theme gives the chips distinct colourings.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const css = readFileSync(join(__dirname, '../../src-renderer/ui/outcome/outcomeChip.css'), 'utf8');

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** `.outcome-<kind> { --outcome-fg: #…; --outcome-bg: #…; }` rules, in the order they appear in `text`. */
function pairs(text: string): { kind: string; fg: string; bg: string }[] {
  return [...text.matchAll(/\.outcome-([a-z-]+) \{ --outcome-fg: (#[0-9a-f]{6}); --outcome-bg: (#[0-9a-f]{6}); \}/g)].map((m) => ({ kind: m[1], fg: m[2], bg: m[3] }));
}

test('every chip colouring, light and dark, has a text contrast of at least 4.5:1', () => {
  const darkAt = css.indexOf('@media (prefers-color-scheme: dark)');
  const light = pairs(css.slice(0, darkAt));
  const dark = pairs(css.slice(darkAt));
  assert.equal(light.length, 10);
  assert.deepEqual(dark.map((p) => p.kind), light.map((p) => p.kind), 'the dark theme colours every kind');
  for (const { kind, fg, bg } of [...light, ...dark]) {
    const ratio = contrast(fg, bg);
    assert.ok(ratio >= 4.5, `${kind}: ${fg} on ${bg} is ${ratio.toFixed(2)}:1`);
  }
  const distinct = (list: typeof light) => new Set(list.map((p) => `${p.fg}/${p.bg}`)).size;
  // limit shares failed's red, unavailable shares cancelled's grey: 8 colourings for 10 kinds.
  assert.equal(distinct(light), 8);
  assert.equal(distinct(dark), 8);
});

test('every kind draws an icon beside its word, with empty alternative text', () => {
  const kinds = pairs(css).map((p) => p.kind);
  for (const kind of new Set(kinds)) assert.match(css, new RegExp(`\\.outcome-${kind}::before \\{ content: "[^"]+" / ""; \\}`), kind);
});
