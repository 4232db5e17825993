import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectConnected, saveScreenshot, sessionItem, visibleSessionView } from './appDriver';
import { expect, test } from './fixtures';

const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

test.describe('worktree sessions', () => {
  test('a session on a repository works on its own branch in its own worktree, shown in the worktree bar; Commit… and Merge… bring its work to main', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    const repo = omni.newWorkspace('wt-repo');
    git(repo, 'init', '-q', '-b', 'main');
    git(repo, 'config', 'user.email', 'dev@example.invalid');
    git(repo, 'config', 'user.name', 'Dev');
    writeFileSync(join(repo, 'README.md'), 'hello\n');
    git(repo, 'add', 'README.md');
    git(repo, 'commit', '-q', '-m', 'first');

    await page.getByTestId('new-session-workspace').fill(repo);
    // In a repository the form offers the worktree, switched on, from the current branch.
    const toggle = page.getByTestId('new-session-worktree');
    await expect(toggle).toBeChecked();
    await expect(page.getByTestId('new-session-base')).toHaveValue('main');
    await page.getByTestId('new-session-name').fill('Feature one');
    await page.getByRole('button', { name: 'New session' }).click();
    await expect(sessionItem(page, 'Feature one')).toBeVisible();

    const view = visibleSessionView(page);
    const bar = view.getByTestId('worktree-bar');
    await expect(bar.getByTestId('worktree-branch')).toHaveText('omni/Feature-one');
    await expect(bar.getByTestId('worktree-base')).toHaveText('main');
    const workspace = (await view.locator('.workspace-path').innerText()).trim();
    expect(workspace).toContain(join(omni.home, 'worktrees'));
    expect(git(repo, 'branch', '--list', '--format=%(refname:short)', 'omni/*')).toBe('omni/Feature-one');

    // The session's change is not in the user's checkout until it is committed and merged.
    writeFileSync(join(workspace, 'feature.txt'), 'done\n');
    await bar.getByTestId('worktree-commit').click();
    await expect(bar.getByTestId('worktree-commit-message')).toBeFocused();
    await page.keyboard.type('Add the feature');
    await page.keyboard.press('Enter');
    await expect(bar.getByTestId('worktree-result')).toContainText('“Add the feature” on omni/Feature-one');
    await expect(bar.getByTestId('worktree-status')).toHaveText('0 uncommitted · 1 commit not in main');
    expect(git(repo, 'status', '--porcelain')).toBe('');

    // Escape backs out of a panel, and focus goes back to the button that opened it.
    await bar.getByTestId('worktree-merge').click();
    await page.keyboard.press('Escape');
    await expect(bar.getByTestId('worktree-merge-confirm')).toBeHidden();
    await expect(bar.getByTestId('worktree-merge')).toBeFocused();
    await bar.getByTestId('worktree-merge').click();
    await bar.getByTestId('worktree-merge-confirm').click();
    await expect(bar.getByTestId('worktree-result')).toContainText('Merged into main (fast-forward');
    expect(readFileSync(join(repo, 'feature.txt'), 'utf8')).toBe('done\n');
    await expect(bar.getByTestId('worktree-status')).toHaveText('0 uncommitted · 0 commits not in main');
    // Listed under the repository it works on, not under its worktree folder.
    await expect(page.getByRole('region', { name: 'Workspace wt-repo' }).getByTestId('session-item')).toHaveCount(1);
    await saveScreenshot(page, 'worktree-bar-merged');
  });

  test('Run on a checkout with uncommitted work asks first: the files listed, Escape leaves everything, "Stash them" stashes and commits nothing', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    const repo = omni.newWorkspace('dirty-repo');
    git(repo, 'init', '-q', '-b', 'main');
    git(repo, 'config', 'user.email', 'dev@example.invalid');
    git(repo, 'config', 'user.name', 'Dev');
    writeFileSync(join(repo, 'app.txt'), 'v1\n');
    git(repo, 'add', 'app.txt');
    git(repo, 'commit', '-q', '-m', 'first');
    writeFileSync(join(repo, 'app.txt'), 'v2, not committed\n');

    // This session works in the checkout itself: the worktree switch turned off with one click.
    await page.getByTestId('new-session-workspace').fill(repo);
    await expect(page.getByTestId('new-session-worktree')).toBeChecked();
    await page.getByTestId('new-session-worktree').uncheck();
    await expect(page.getByTestId('new-session-base')).toBeHidden();
    await page.getByTestId('new-session-name').fill('On the checkout');
    await page.getByRole('button', { name: 'New session' }).click();
    const view = visibleSessionView(page);
    await expect(view.getByTestId('session-title')).toHaveText('On the checkout');
    await expect(view.getByTestId('worktree-bar')).toHaveCount(0);

    await page.keyboard.press('Control+Shift+G');
    await expect(view.getByTestId('goal-panel')).toHaveAttribute('open', '');
    await view.getByTestId('goal-context-text').fill('# Goal\n\n## Plan\n- [01] Something\n');
    await view.getByTestId('goal-context-text').press('Control+s');
    await expect(view.getByTestId('goal-context-status')).toHaveText(/^Saved/);

    await view.getByTestId('goal-run').click();
    const question = view.getByTestId('goal-dirty-tree');
    await expect(question.getByTestId('goal-dirty-tree-files')).toHaveText('M app.txt');
    await expect(question.getByTestId('goal-dirty-commit')).toBeFocused();
    await expect(question.getByTestId('goal-dirty-commit')).toContainText('Work in progress, committed before a goal run');
    await saveScreenshot(page, 'goal-dirty-tree-question');
    await page.keyboard.press('Escape');
    await expect(question).toBeHidden();
    expect(git(repo, 'log', '--format=%s')).toBe('first');

    await view.getByTestId('goal-run').click();
    await question.getByTestId('goal-dirty-stash').click();
    await expect(question).toBeHidden();
    await expect.poll(() => git(repo, 'stash', 'list'), { timeout: 15_000 }).toContain('Omniscient Shell: before the goal run');
    // git writes the stash before it resets the files: the file is polled too.
    await expect.poll(() => readFileSync(join(repo, 'app.txt'), 'utf8')).toBe('v1\n');
    expect(git(repo, 'log', '--format=%s', '--author=Dev')).toBe('first');
  });
});
