// The session page's remembered layout: what comes back from storage is checked field by field (storage is not
// trusted), sizes stay within their limits, and the dock's tabs fall back sensibly when a remembered terminal is gone.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_LAYOUT, LIMITS, RUNS_TAB, clampSize, parseLayout, pickSplitTab, resolveTabs } from '../../../../src-renderer/features/workspace/layoutPrefs';

test('a stored layout comes back as it was saved', () => {
  const saved = { dockPercent: 60, sidePercent: 25, splitPercent: 40, sideCollapsed: true, collapsed: { grants: true, goal: false }, activeTab: 't1', splitTab: 't2' };
  assert.deepEqual(parseLayout(JSON.stringify(saved)), saved);
});

test('nothing stored, broken JSON or the wrong shape give the default layout', () => {
  for (const text of [null, '', '{', '[]', '42', 'null', '"x"']) assert.deepEqual(parseLayout(text), DEFAULT_LAYOUT, String(text));
});

test('each bad field falls back on its own, the good ones are kept', () => {
  const layout = parseLayout(
    JSON.stringify({ dockPercent: 'tall', sidePercent: 1e9, splitPercent: -5, sideCollapsed: 'yes', collapsed: { grants: 'no', goal: true }, activeTab: '', splitTab: 'x'.repeat(500) }),
  );
  assert.equal(layout.dockPercent, DEFAULT_LAYOUT.dockPercent);
  assert.equal(layout.sidePercent, LIMITS.sidePercent.max);
  assert.equal(layout.splitPercent, LIMITS.splitPercent.min);
  assert.equal(layout.sideCollapsed, false);
  assert.deepEqual(layout.collapsed, { goal: true });
  assert.equal(layout.activeTab, null);
  assert.equal(layout.splitTab, null);
});

test('sizes are kept within their limits and rounded', () => {
  assert.equal(clampSize('dockPercent', 3), LIMITS.dockPercent.min);
  assert.equal(clampSize('dockPercent', 99), LIMITS.dockPercent.max);
  assert.equal(clampSize('dockPercent', 50.6), 51);
});

test('the dock shows the remembered tab, or the newest terminal when it is gone, or the runs when there is none', () => {
  assert.deepEqual(resolveTabs({ activeTab: 't1', splitTab: null }, ['t1', 't2', RUNS_TAB]), { active: 't1', split: null });
  assert.deepEqual(resolveTabs({ activeTab: 'gone', splitTab: null }, ['t1', 't2', RUNS_TAB]), { active: 't2', split: null });
  assert.deepEqual(resolveTabs({ activeTab: null, splitTab: null }, [RUNS_TAB]), { active: RUNS_TAB, split: null });
});

test('a split needs a second tab that still exists and differs from the first', () => {
  assert.deepEqual(resolveTabs({ activeTab: 't1', splitTab: 't2' }, ['t1', 't2', RUNS_TAB]), { active: 't1', split: 't2' });
  assert.deepEqual(resolveTabs({ activeTab: 't1', splitTab: 'gone' }, ['t1', RUNS_TAB]), { active: 't1', split: null });
  assert.deepEqual(resolveTabs({ activeTab: 't1', splitTab: 't1' }, ['t1', RUNS_TAB]), { active: 't1', split: null });
});

test('splitting puts the next terminal beside the one in front, else the runs', () => {
  assert.equal(pickSplitTab('t1', ['t1', 't2', 't3', RUNS_TAB]), 't2');
  assert.equal(pickSplitTab('t3', ['t1', 't2', 't3', RUNS_TAB]), 't1');
  assert.equal(pickSplitTab('t1', ['t1', RUNS_TAB]), RUNS_TAB);
  assert.equal(pickSplitTab(RUNS_TAB, [RUNS_TAB]), null);
});
