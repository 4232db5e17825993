import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { createSession, expectConnected, saveScreenshot, visibleSessionView } from './appDriver';
import { expect, test, type OmniApp } from './fixtures';

/** Opens the Agents view and waits for the host's `agent.list` answer (an error there fails the test). */
async function agentsListed(page: Page): Promise<void> {
  await page.getByTestId('tab-agents').click();
  await expect(page.getByTestId('agents-view')).toHaveAttribute('data-list-state', 'loaded');
}

test.describe('agents', () => {
  test('the Agents view lists the five bundled agents with their manifests', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    await agentsListed(page);

    const view = page.getByTestId('agents-view');
    const cards = view.getByTestId('agent-manifest');
    await expect(cards).toHaveCount(5);
    const scaffolder = view.locator('[data-testid="agent-manifest"][data-agent="scaffolder"]');
    await expect(scaffolder).toContainText('0.1.0');
    await expect(scaffolder.getByTestId('agent-source')).toHaveText('bundled');
    await expect(scaffolder.getByTestId('agent-sandbox')).toHaveText('wasm');
    await expect(scaffolder.getByTestId('agent-capabilities')).toContainText('files.write');
    await expect(scaffolder).toContainText('500m');
    await expect(scaffolder).toContainText('64 MiB');
    await expect(view.locator('[data-testid="agent-manifest"][data-agent="workspace-summary"]')).toContainText('files.read');
    await expect(view.locator('[data-testid="agent-manifest"][data-agent="http-check"]').getByTestId('agent-capabilities')).toContainText('network');
    await expect(view.getByTestId('agent-broken')).toHaveCount(0);
    await saveScreenshot(page, 'agents-view');
  });

  test('scaffolder: Allow for 10 minutes writes the files shown as diffs; after Revoke the agent asks again and, denied, falls back to code cards', async ({
    omni,
  }) => {
    const { page } = omni;
    await expectConnected(page);
    await agentsListed(page);
    const workspace = omni.newWorkspace('scaffold-here');
    await page.getByTestId('tab-session').click();
    await createSession(page, workspace, 'Scaffolding');
    const session = visibleSessionView(page);

    // Start: pick the agent in the Agents view, which brings the keyboard to the session's prompt; type, Enter.
    await page.getByTestId('tab-agents').click();
    await page.locator('[data-testid="agent-manifest"][data-agent="scaffolder"]').getByRole('button', { name: 'Use in Scaffolding' }).click();
    await expect(session.getByTestId('agent-prompt')).toBeFocused();
    await expect(session.getByTestId('agent-select')).toHaveValue('scaffolder');
    await page.keyboard.type('scaffold demo-lib');
    await page.keyboard.press('Enter');
    const firstRun = session.getByTestId('run-card').first();
    await expect(firstRun).toContainText('scaffold demo-lib');

    // The consent card says who wants what, on what, why and for how long.
    const consent = session.getByTestId('consent-card');
    await expect(consent).toHaveCount(1, { timeout: 15_000 });
    await expect(consent.getByTestId('consent-agent')).toHaveText('scaffolder');
    await expect(consent.getByTestId('consent-capability')).toHaveText('files.write');
    await expect(consent.getByTestId('consent-scope')).toContainText('demo-lib/');
    await expect(consent.getByTestId('consent-reason')).toContainText('demo-lib');
    await expect(consent.getByTestId('consent-minutes')).toHaveValue('10');
    await saveScreenshot(page, 'agents-consent-card');
    await consent.getByRole('button', { name: 'Allow for 10 minutes' }).click();
    await expect(consent).toHaveCount(0);

    // Diff cards for the files, the run completes, the files are on disk.
    await expect(firstRun).toHaveAttribute('data-outcome', 'completed', { timeout: 20_000 });
    await expect(firstRun.getByTestId('run-state')).toHaveText(/Completed/);
    const diffs = firstRun.locator('[data-testid="output-card"][data-card-kind="diff"]');
    await expect(diffs).toHaveCount(4);
    await expect(firstRun.getByTestId('diff-file')).toHaveText(['demo-lib/package.json', 'demo-lib/tsconfig.json', 'demo-lib/src/index.ts', 'demo-lib/README.md']);
    await expect(diffs.first().locator('.line-row.diff-added').first()).toBeVisible();
    await expect(diffs.first().getByTestId('diff-lines')).toContainText('"name": "demo-lib"');
    await expect(firstRun.getByTestId('markdown-body')).toContainText('wrote demo-lib/src/index.ts');
    for (const file of ['package.json', 'tsconfig.json', 'src/index.ts', 'README.md']) expect(existsSync(join(workspace, 'demo-lib', file)), file).toBe(true);
    expect(readFileSync(join(workspace, 'demo-lib/src/index.ts'), 'utf8')).toContain('export function hello');

    // The grant is listed with a countdown from just under 10 minutes.
    const grant = session.getByTestId('grant-row');
    await expect(grant).toHaveCount(1);
    await expect(grant).toHaveAttribute('data-capability', 'files.write');
    // Grants are grouped by agent: the row sits in scaffolder's group.
    await expect(session.locator('[data-testid="grant-group"][data-agent="scaffolder"]').getByTestId('grant-row')).toHaveCount(1);
    await expect(grant.getByTestId('grant-countdown')).toHaveText(/^(10:00|9:[0-5]\d)$/);
    await saveScreenshot(page, 'agents-run-cards');

    // Cards keep their state while the user is elsewhere.
    await page.getByTestId('tab-ledger').click();
    await page.getByTestId('tab-session').click();
    await expect(firstRun.locator('[data-testid="output-card"][data-card-kind="diff"]')).toHaveCount(4);

    // Revoke: the grant goes at once.
    await grant.getByTestId('grant-revoke').click();
    await expect(session.getByTestId('grant-row')).toHaveCount(0);
    await expect(session.getByTestId('grants-empty')).toBeVisible();

    // Run again with a file missing: the agent has to ask again (the grant is gone); denied, it falls back.
    const missing = join(workspace, 'demo-lib/README.md');
    rmSync(missing);
    await session.getByTestId('agent-prompt').fill('scaffold demo-lib');
    await session.getByTestId('agent-start').click();
    const secondRun = session.getByTestId('run-card').first();
    await expect(session.getByTestId('run-card')).toHaveCount(2);
    await expect(consent).toHaveCount(1, { timeout: 15_000 });
    // Answered from the keyboard this time.
    await consent.getByTestId('consent-deny').press('Enter');
    await expect(consent).toHaveCount(0);
    await expect(secondRun).toHaveAttribute('data-outcome', /completed|failed/, { timeout: 20_000 });
    await expect(secondRun.getByTestId('markdown-body')).toContainText('Not allowed to write files');
    await expect(secondRun.locator('[data-testid="output-card"][data-card-kind="code"]').filter({ hasText: 'demo-lib/README.md' })).toHaveCount(1);
    expect(existsSync(missing), 'nothing is written after the revoke').toBe(false);
    await saveScreenshot(page, 'agents-fallback');
  });

  /** Starts http-check in a new session and waits for its network consent card. */
  async function httpCheckAsking(omni: OmniApp) {
    const { page } = omni;
    await page.getByTestId('tab-session').click();
    await createSession(page, omni.newWorkspace('checks'), 'Checks');
    const session = visibleSessionView(page);
    await session.getByTestId('agent-select').selectOption('http-check');
    await session.getByTestId('agent-prompt').fill('https://example.org/status');
    await session.getByTestId('agent-start').click();
    const consent = session.getByTestId('consent-card');
    await expect(consent).toHaveCount(1, { timeout: 15_000 });
    return { session, run: session.getByTestId('run-card'), consent };
  }

  test('http-check: the consent card names the agent, network and the domain; Suspend, Resume, and Stop ends the waiting run', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    await agentsListed(page);
    const { run, consent } = await httpCheckAsking(omni);
    await expect(consent.getByTestId('consent-agent')).toHaveText('http-check');
    await expect(consent.getByTestId('consent-capability')).toHaveText('network');
    await expect(consent.getByTestId('consent-target')).toContainText('example.org');
    await expect(run.getByTestId('run-state')).toHaveText('Active');

    await run.getByTestId('run-suspend').click();
    await expect(run).toHaveAttribute('data-state', 'Suspended');
    await expect(run.getByTestId('run-suspend')).toHaveCount(0);
    await run.getByTestId('run-resume').click();
    await expect(run).toHaveAttribute('data-state', 'Active');

    await run.getByTestId('run-stop').click();
    await expect(run).toHaveAttribute('data-state', 'Terminated');
    await expect(run).toHaveAttribute('data-outcome', 'stopped');
    await expect(run.getByTestId('run-stop')).toHaveCount(0);
  });

  test('a stopped run’s pending consent prompt is withdrawn, so its card goes away', async ({ omni }) => {
    // Nobody may be asked on behalf of a run that no longer exists: stopping it withdraws its prompt at once.
    const { page } = omni;
    await expectConnected(page);
    await agentsListed(page);
    const { run, consent } = await httpCheckAsking(omni);
    await run.getByTestId('run-stop').click();
    await expect(run).toHaveAttribute('data-outcome', 'stopped');
    await expect(consent).toHaveCount(0, { timeout: 5_000 });
  });

  test('a host crash while a run waits for consent: the card goes, and the run comes back from the log as interrupted, with its output', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    await agentsListed(page);
    const { run, consent } = await httpCheckAsking(omni);
    await omni.restartHost();
    await expectConnected(page);
    await expect(consent).toHaveCount(0);
    await expect(run).toHaveAttribute('data-outcome', 'interrupted');
    await expect(run.getByTestId('run-error').first()).toContainText('interrupted');
    await expect(run).toHaveAttribute('data-state', 'Terminated');
    await expect(run.getByTestId('run-stop')).toHaveCount(0);
    await expect(run).toContainText('Checking https://example.org/status');
  });
});
