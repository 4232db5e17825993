// `omni serve` stopped by a signal: whoever started it may stop it the moment it prints its ready line (the bench,
// a service manager, a user's Ctrl+C), and it must then still stop cleanly, not die from the signal.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { tempDir } from '../helpers';
import { startHostProcess } from './connect';

test('a host stopped the moment it says it is ready stops cleanly: exit 0, its stop announced, its home free again', async (t) => {
  const home = tempDir('serve-signals');
  t.after(home.cleanup);
  for (const round of [1, 2, 3]) {
    const host = await startHostProcess(home.path);
    const result = await host.stop('SIGTERM');
    assert.deepEqual(result, { code: 0, signal: null }, `round ${round}: the host died from the signal instead of stopping:\n${host.output()}`);
    assert.match(host.output(), /SIGTERM received, stopping/);
  }
});
