// Sandboxed runs stage under the app home (<home>/staging), and what a crashed host left there is removed when the
// next host starts on that home; nothing else in the folder, and nothing a link there points to, is touched.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { createHostServices } from '../../../src-main/node/hostServices';
import { tempDir } from '../../helpers';

test('a crashed host’s leftovers under <home>/staging are removed at the next start; nothing that is not ours is', async (t) => {
  const dir = tempDir('staging-sweep');
  t.after(dir.cleanup);
  const home = join(dir.path, 'home');
  const staging = join(home, 'staging');
  mkdirSync(staging, { recursive: true });

  // A host process that has died (a kill -9 of the host leaves its run directories like this one behind).
  const dead = spawnSync('true').pid!;
  const leftover = join(staging, `omni-native-${dead}-AbC123`);
  mkdirSync(join(leftover, 'upper', 'build'), { recursive: true });
  writeFileSync(join(leftover, 'upper', 'build', 'out.bin'), Buffer.alloc(64 * 1024));
  mkdirSync(join(leftover, 'work', 'work'), { recursive: true, mode: 0o000 }); // the overlay's, mode 000 as it leaves it
  const etcLeftover = join(staging, `omni-native-etc-${dead}-XyZ789`);
  mkdirSync(etcLeftover);
  writeFileSync(join(etcLeftover, 'hosts'), '127.0.0.1 localhost\n');
  // Not ours: a file someone put there, a folder with another name, and a link named like ours to a folder elsewhere.
  writeFileSync(join(staging, 'notes.txt'), 'mine');
  mkdirSync(join(staging, 'omni-native-keep'));
  const elsewhere = join(dir.path, 'elsewhere');
  mkdirSync(elsewhere);
  writeFileSync(join(elsewhere, 'precious.txt'), 'precious');
  symlinkSync(elsewhere, join(staging, `omni-native-${dead}-Link00`));

  const host = await createHostServices({ home, version: '0.0.0-test', keychain: 'off' });
  await host.dispose();

  assert.equal(existsSync(leftover), false, 'the dead host’s run directory is gone');
  assert.equal(existsSync(etcLeftover), false, 'and its /etc snapshot');
  assert.deepEqual(readdirSync(staging).sort(), [`omni-native-${dead}-Link00`, 'notes.txt', 'omni-native-keep'].sort());
  assert.equal(existsSync(join(elsewhere, 'precious.txt')), true, 'a link is not followed');
});
