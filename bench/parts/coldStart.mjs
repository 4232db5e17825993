// Host cold start to ready: `omni serve` with a fresh home (cold database creation) and with a warm home, next to
// the cold start of a bare Node HTTP server in the same run. Runs are interleaved so drift hits all series alike.
import { join } from 'node:path';
import { removeDir, stop, tempDir } from '../lib/cleanup.mjs';
import { READY_LINE, spawnUntilReady } from '../lib/host.mjs';
import { median } from '../lib/stats.mjs';

const REFERENCE_SCRIPT = "require('http').createServer().listen(0,'127.0.0.1',()=>console.log('ready'))";

async function timeHost(root, home) {
  const started = await spawnUntilReady(process.execPath, [join(root, 'bin/omni.mjs'), 'serve', '--port', '0', '--home', home], {
    ready: READY_LINE,
    kind: 'host',
    cwd: root,
  });
  await stop(started.child, 5000);
  return started.ms;
}

async function timeReference() {
  const started = await spawnUntilReady(process.execPath, ['-e', REFERENCE_SCRIPT], { ready: /^ready$/m });
  await stop(started.child);
  return started.ms;
}

/** Node loading the CLI bundle and printing its version: the part of start-up that is module loading alone. */
async function timeBundleLoad(root) {
  const started = await spawnUntilReady(process.execPath, [join(root, 'bin/omni.mjs'), 'version'], { ready: /\d+\.\d+\.\d+/ });
  await stop(started.child);
  return started.ms;
}

export async function measureColdStart({ root, runs = 7, log }) {
  const fresh = [];
  const warm = [];
  const reference = [];
  const bundle = [];
  const warmHome = tempDir('warm-home');
  try {
    // The warm home gets its database (and token) once before the timed runs.
    await timeHost(root, warmHome);
    for (let i = 0; i < runs; i++) {
      reference.push(await timeReference());
      const home = tempDir('cold-home');
      try {
        fresh.push(await timeHost(root, home));
      } finally {
        removeDir(home);
      }
      warm.push(await timeHost(root, warmHome));
      bundle.push(await timeBundleLoad(root));
      log(`  cold start ${i + 1}/${runs}: reference ${reference.at(-1).toFixed(0)} ms, fresh home ${fresh.at(-1).toFixed(0)} ms, warm home ${warm.at(-1).toFixed(0)} ms`);
    }
  } finally {
    removeDir(warmHome);
  }
  return {
    runs,
    referenceMs: median(reference),
    freshMs: median(fresh),
    warmMs: median(warm),
    bundleLoadMs: median(bundle),
    samples: { reference, fresh, warm, bundleLoad: bundle },
  };
}
