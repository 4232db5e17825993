// The status bar's shortcut list is the one place a user learns the app-wide keys: every Ctrl+Shift shortcut a
// control announces (aria-keyshortcuts) must be in it, so a new shortcut cannot be left out again (Ctrl+Shift+B was).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { shortcuts } from '../../../../src-renderer/features/status/ShortcutHelp';

const rendererRoot = join(__dirname, '../../../../src-renderer');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

test('every Ctrl+Shift shortcut a control announces is in the status bar list', () => {
  const announced = new Set<string>();
  for (const file of sourceFiles(rendererRoot)) {
    for (const match of readFileSync(file, 'utf8').matchAll(/aria-keyshortcuts="Control\+Shift\+([A-Z])"/g)) announced.add(`Ctrl+Shift+${match[1]}`);
  }
  assert.ok(announced.has('Ctrl+Shift+B'), 'the side panels toggle announces Ctrl+Shift+B');
  const listed = shortcuts.map((s) => s.keys);
  assert.equal(new Set(listed).size, listed.length, 'no shortcut listed twice');
  for (const keys of announced) assert.ok(listed.includes(keys), `${keys} is announced by a control but missing from the status bar's list`);
});
