// `npm run test:electron` (scripts/test-electron.mjs): runs the e2e suite under Electron only where the e2e fixture
// would launch Electron, and otherwise says plainly that nothing ran under Electron, exiting 0.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { electronBinaryExists } from '../../e2e/electronBinary';
import { electronAvailability } from '../../scripts/test-electron.mjs';

const root = join(import.meta.dirname, '..', '..');

test('Electron counts as available only with a downloaded binary and, on Linux, a display', () => {
  const fake = mkdtempSync(join(tmpdir(), 'omni-electron-pkg-'));
  try {
    const display = { DISPLAY: ':0' };
    assert.match(electronAvailability(fake, display, 'linux').why ?? '', /not installed/);
    const pkg = join(fake, 'node_modules', 'electron');
    mkdirSync(join(pkg, 'dist'), { recursive: true });
    writeFileSync(join(pkg, 'package.json'), '{"version":"45.4.1"}');
    assert.match(electronAvailability(fake, display, 'linux').why ?? '', /never downloaded/);
    writeFileSync(join(pkg, 'path.txt'), 'electron');
    assert.match(electronAvailability(fake, display, 'linux').why ?? '', /is missing/);
    writeFileSync(join(pkg, 'dist', 'electron'), '');
    assert.deepEqual(electronAvailability(fake, display, 'linux'), { available: true, binary: join(pkg, 'dist', 'electron') });
    assert.match(electronAvailability(fake, {}, 'linux').why ?? '', /no display/);
    assert.equal(electronAvailability(fake, {}, 'darwin').available, true);
  } finally {
    rmSync(fake, { recursive: true, force: true });
  }
});

test('finds the binary exactly where the e2e fixture does', () => {
  assert.equal(electronAvailability(root, { DISPLAY: ':0' }, 'linux').available, electronBinaryExists());
});

test('without Electron it runs nothing, says so, and exits 0', { skip: electronAvailability(root).available && 'Electron can run here' }, () => {
  const result = spawnSync(process.execPath, [join(root, 'scripts/test-electron.mjs')], { cwd: root, encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /^Electron is not available on this machine \(.+\); the e2e suite ran in Chromium over WebSocket in `npm test`; nothing was run under Electron\.\n$/);
});
