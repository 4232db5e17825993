// Worktree sessions and the goal run's dirty-tree question through the host as the app composes it: the handlers
// (behind the handler edge, so errors are what the UI gets), real git, SQLite on disk.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { ConnectionContext } from '../../src-preload/rpc';
import { RpcError } from '../../src-preload/contract/errors';
import { DIRTY_TREE_FIELD } from '../../src-preload/contract';
import { createHostServices } from '../../src-main/node/hostServices';
import { tempDir, waitFor } from '../helpers';

const CONNECTION: ConnectionContext = { connectionId: 1, transport: 'memory' };

test('through the host: gitInfo, a worktree session, and "run in a new worktree" leaves the user’s dirty checkout as it was', { timeout: 120_000 }, async (t) => {
  const home = tempDir('wt-host-home');
  const dir = tempDir('wt-host-repo');
  const services = await createHostServices({ home: home.path, version: '0.0.0-test', keychain: 'off' });
  t.after(async () => {
    await services.dispose();
    home.cleanup();
    dir.cleanup();
  });
  const h = services.handlers;
  const repo = dir.path;
  const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'config', 'user.email', 'dev@example.invalid');
  git(repo, 'config', 'user.name', 'Dev');
  writeFileSync(join(repo, 'app.txt'), 'v1\n');
  git(repo, 'add', 'app.txt');
  git(repo, 'commit', '-q', '-m', 'first');
  git(repo, 'branch', 'release');

  assert.deepEqual(await h['session.gitInfo']({ workspace: repo }, CONNECTION), { inRepo: true, repo, branches: ['main', 'release'], current: 'main' });
  const outside = join(home.path, 'plain');
  mkdirSync(outside);
  assert.equal((await h['session.gitInfo']({ workspace: outside }, CONNECTION)).inRepo, false);

  // A worktree session from "release"; a bad base is an INVALID_PARAMS the form shows under its field.
  const wt = await h['session.create']({ workspace: repo, name: 'From release', worktree: { base: 'release' } }, CONNECTION);
  assert.deepEqual(wt.worktree, { repo, branch: 'omni/From-release', base: 'release' });
  assert.ok(wt.workspace.startsWith(join(home.path, 'worktrees')));
  const bad = await Promise.resolve(h['session.create']({ workspace: repo, name: 'x', worktree: { base: '-x' } }, CONNECTION)).catch((e: unknown) => e);
  assert.ok(bad instanceof RpcError && bad.code === 'INVALID_PARAMS' && bad.issues?.[0].path === 'worktree.base', String(bad));
  assert.equal((await h['worktree.status']({ sessionId: wt.id }, CONNECTION)).ahead, 0);

  // The user's own session on the checkout, with uncommitted work and a goal.
  const mine = await h['session.create']({ workspace: repo, name: 'Mine' }, CONNECTION);
  assert.equal(mine.worktree, null);
  mkdirSync(join(repo, '.meta'));
  writeFileSync(join(repo, '.meta', 'context.md'), '# Goal\n\n## Plan\n- [01] First\n');
  writeFileSync(join(repo, 'app.txt'), 'v2, uncommitted\n');
  const head = git(repo, 'rev-parse', 'HEAD');
  const status = git(repo, 'status', '--porcelain', '--', '.', ':(exclude).meta');

  const question = await Promise.resolve(h['goal.start']({ sessionId: mine.id }, CONNECTION)).catch((e: unknown) => e);
  assert.ok(question instanceof RpcError && question.code === 'INVALID_STATE', String(question));
  assert.deepEqual(question.issues?.filter((i) => i.path === DIRTY_TREE_FIELD).map((i) => i.message), [' M app.txt']);

  const view = await h['goal.start']({ sessionId: mine.id, dirtyTree: 'worktree' }, CONNECTION);
  assert.notEqual(view.sessionId, mine.id, 'the run is in a new session');
  const created = (await h['session.list']({}, CONNECTION)).find((s) => s.id === view.sessionId)!;
  assert.deepEqual(created.worktree, { repo, branch: 'omni/Mine-goal', base: 'main' });
  assert.equal(readFileSync(join(created.workspace, '.meta', 'context.md'), 'utf8'), '# Goal\n\n## Plan\n- [01] First\n');
  services.ledger.flush();
  assert.ok(services.ledger.list({ sessionId: created.id, limit: 50 }).some((e) => e.type.startsWith('meta.context')), 'the copied goal is in the new session’s ledger');
  // The run there ends (no executor agent is installed here); the user's checkout was never touched.
  await waitFor(() => ['done', 'failed', 'halted'].includes(services.goalRuns.view(created.id).phase) || null, 'the run in the worktree to end', 60_000);
  assert.equal(git(repo, 'rev-parse', 'HEAD'), head);
  assert.equal(git(repo, 'status', '--porcelain', '--', '.', ':(exclude).meta'), status);
  assert.equal(readFileSync(join(repo, 'app.txt'), 'utf8'), 'v2, uncommitted\n');
  assert.equal(existsSync(join(created.workspace, 'app.txt')) && readFileSync(join(created.workspace, 'app.txt'), 'utf8'), 'v1\n');
});
