import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { MetaState, parseSessionState } from '../../../src-main/node/goal/metaShell';
import { tempDir } from '../../helpers';
import { bundleFixture } from './fixtures/bundle';
import { startChild } from './fixtures/children';
import { stressScale } from '../../stressScale';

const KILLS = stressScale(1000, 100);
/** Writers running at once, each in its own process, so kills also land while another process waits for the lock. */
const LANES = 5;

describe('session.json survives writers killed mid-write', () => {
  const scripts = tempDir('kill-fixtures');
  const ws = tempDir('kill-workspace');
  let writerScript: string;
  before(async () => {
    writerScript = await bundleFixture('stateWriter', scripts.path);
    await new MetaState(ws.path).initialize({ sessionId: 'ses-kills' });
  });
  after(() => {
    scripts.cleanup();
    ws.cleanup();
  });

  it(`parses after ${KILLS} SIGKILLs of processes writing it through update_state`, async () => {
    const meta = new MetaState(ws.path);
    let kills = 0;
    let killedHoldingLock = 0;
    let tempsSeen = 0;
    const started = performance.now();

    const lane = async (writer: number) => {
      while (kills < KILLS) {
        kills++;
        const child = startChild(writerScript, [ws.path, String(writer)]);
        // Started writing (one write done), then killed at a random moment of its loop: most of a write is its fsyncs,
        // so most kills land inside one (between temp file, fsync, rename, folder fsync, lock release).
        await child.line(/^writing$/);
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 25));
        child.process.kill('SIGKILL');
        await child.exited;
        try {
          if (JSON.parse(readFileSync(meta.paths.lock, 'utf8')).pid === child.process.pid) killedHoldingLock++;
        } catch {
          // no lock file, or another writer's being created
        }
        tempsSeen += readdirSync(meta.paths.dir).filter((n) => n.startsWith('.session.json.tmp-')).length;
        // Every time, not just at the end: whoever reads between writes sees a whole, valid state.
        parseSessionState(JSON.parse(readFileSync(meta.paths.session, 'utf8')), 'session.json after a kill');
      }
    };
    await Promise.all(Array.from({ length: LANES }, (_, i) => lane(i)));

    const state = await meta.read();
    assert.ok(state, 'session.json is there');
    for (let w = 0; w < LANES; w++) assert.ok((state.variables[`w${w}`] as { n: number }).n >= 1, `writer ${w}'s writes landed`);
    // A lock left by the last killed holder is taken over; the leftovers of killed writes are cleared under it.
    await meta.updateState('status', 'halted', 5000);
    assert.deepEqual(readdirSync(meta.paths.dir).sort(), ['session.json']);
    assert.ok(killedHoldingLock > 0, 'some kills landed while the writer held the lock, mid-write');
    const seconds = (performance.now() - started) / 1000;
    console.log(`# ${kills} kills in ${seconds.toFixed(1)} s: ${killedHoldingLock} while holding the lock, ${tempsSeen} temporary files seen right after a kill; session.json parsed after every one`);
  });
});
