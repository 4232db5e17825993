// killTree, which ends a terminal card's program (a shell, or a harness CLI) with its whole tree: SIGHUP first, and
// SIGKILL only for what is still running when the grace period ends. A program that saves its state on SIGHUP gets to
// finish; one that ignores SIGHUP does not outlive the grace period; and nobody waits for a grace period a tree that
// is already gone does not need.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { killTree, treeMembers } from '../../src-main/node/terminals/processTree';
import { tempDir, waitFor } from '../helpers';

/** Still running: a killed member whose parent has not reaped it yet is a zombie, which has ended. */
function running(pid: number): boolean {
  try {
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'latin1'));
  } catch {
    return false;
  }
}

/** A tree root of its own (a new session, as a PTY's child is) running `script`; resolves once it has set up. */
async function startTree(script: string, ready: string): Promise<number> {
  const child = spawn('sh', ['-c', script], { detached: true, stdio: 'ignore' });
  await waitFor(() => existsSync(ready), 'the tree to set up its traps');
  return child.pid!;
}

test('a program that saves on SIGHUP, slower than the default grace, finishes saving when given a longer grace', async (t) => {
  const dir = tempDir('tree');
  t.after(() => dir.cleanup());
  const saved = join(dir.path, 'saved');
  const ready = join(dir.path, 'ready');
  // A child of the root keeps running too: the tree is only gone when both are.
  const root = await startTree(`trap 'sleep 0.8; echo turn >${saved}; exit 0' HUP; sleep 60 & touch ${ready}; wait; wait`, ready);
  const members = treeMembers(root);
  assert.ok(members.length >= 2, `the root and its sleep: ${members.join(' ')}`);

  const started = Date.now();
  await killTree(root, 5000);
  assert.equal(readFileSync(saved, 'utf8'), 'turn\n', 'the trap ran to its end before SIGKILL');
  assert.ok(Date.now() - started < 5000, 'killTree returned once the tree was gone, not at the end of the grace period');
  await waitFor(() => !members.some(running), 'every member gone');
});

test('with the default grace a slow saver is killed before it saves, and a program ignoring SIGHUP is killed after its grace', async (t) => {
  const dir = tempDir('tree');
  t.after(() => dir.cleanup());
  const saved = join(dir.path, 'saved');
  const ready = join(dir.path, 'ready');
  const slow = await startTree(`trap 'sleep 3; echo turn >${saved}; exit 0' HUP; touch ${ready}; while :; do sleep 0.05; done`, ready);
  await killTree(slow);
  await waitFor(() => !running(slow), 'the slow saver killed');
  assert.equal(existsSync(saved), false, 'SIGKILL came before the save');

  const deaf = join(dir.path, 'deaf-ready');
  const stubborn = await startTree(`trap '' HUP; touch ${deaf}; while :; do sleep 0.05; done`, deaf);
  const members = treeMembers(stubborn);
  await killTree(stubborn, 300);
  await waitFor(() => !members.some(running), 'the tree ignoring SIGHUP killed');
});
