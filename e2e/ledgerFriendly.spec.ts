import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { databasePath } from '../src-main/node/home';
import { openDatabase } from '../src-main/node/store/database';
import { appendSyntheticEntries, type SyntheticEntry } from '../test/syntheticLedger';
import { createSession, expectConnected, saveScreenshot } from './appDriver';
import { expect, test, type OmniApp } from './fixtures';

const GRANT = { grantId: 'g1', agentId: 'workspace-summary', capability: 'files.read', scope: '**', action: null };

/** Entries a user would have met: a grant 2½ minutes ago, its revocation, an agent's request, a command with a token. */
function seedLedger(home: string): void {
  const now = Date.now();
  const entries: SyntheticEntry[] = [
    { ts: now - 2 * 86_400_000, type: 'exec.spawn', actor: 'agent:builder', sessionId: null, payload: { run_id: 'r1', argv: ['npm', 'test'], cwd: '/srv/app', env: { TOKEN: 'not-a-real-token', HOME: '/home/ana' } } },
    { ts: now - 3 * 3_600_000, type: 'consent.request', actor: 'notes-agent', sessionId: null, payload: { capability: 'files.write', target: 'notes.md', scope: 'notes.md', reason: 'to save your notes', durationS: null, action: null } },
    { ts: now - 150_000, type: 'consent.grant', actor: 'user', sessionId: null, payload: { ...GRANT, target: null, reason: null, once: false, durationS: 600, expiresAt: now + 450_000 } },
    { ts: now - 65_000, type: 'consent.revoke', actor: 'user', sessionId: null, payload: { ...GRANT, reason: 'revoked', expiresAt: now + 450_000, durationS: 85 } },
  ];
  const db = openDatabase(databasePath(home));
  try {
    appendSyntheticEntries(db, entries.length, (i) => entries[i]);
  } finally {
    db.close();
  }
}

// eslint-disable-next-line no-empty-pattern
test.use({ prepareHome: async ({}, use) => use(seedLedger) });

interface ExportLine {
  seq?: number;
  type?: string;
  payload?: Record<string, unknown> | null;
  disclosed?: Record<string, unknown>;
  redacted?: string;
}

/** The ledger view at 1000×700, after a session was created (its workspace is returned). */
async function openLedger(omni: OmniApp) {
  const { page } = omni;
  await page.setViewportSize({ width: 1000, height: 700 });
  await expectConnected(page);
  const workspace = omni.newWorkspace('friendly');
  await createSession(page, workspace, 'Friendly');
  await page.getByTestId('tab-ledger').click();
  const view = page.getByTestId('ledger-view');
  const row = (type: string) => view.locator(`[data-testid="ledger-row"][data-type="${type}"]`);
  await expect(row('session.create')).toHaveCount(1);
  return { page, view, row, workspace };
}

test.describe('the ledger in plain words', () => {
  // A host, a browser and a verify or an export each: under the load of parallel helpers that is more than 30 s.
  test.describe.configure({ timeout: 90_000 });

  test('sentences, ages with exact times, and one filter entry per actor', async ({ omni }) => {
    const { page, view, row, workspace } = await openLedger(omni);

    // What happened, in a sentence.
    await expect(row('consent.grant').getByTestId('ledger-sentence')).toHaveText('workspace-summary was allowed to read all files in the workspace for 10 minutes');
    await expect(row('consent.revoke').getByTestId('ledger-sentence')).toHaveText("You revoked workspace-summary's permission to read all files in the workspace");
    await expect(row('session.create').getByTestId('ledger-sentence')).toHaveText(`You created session "Friendly" in ${workspace}`);
    await expect(view.getByRole('columnheader', { name: 'What happened' })).toBeVisible();

    // When: an age at a glance, the exact time in the tooltip and in the details.
    // The grant was seeded 2½ minutes before the host started; on a loaded machine the test gets here later, so the
    // age is checked against the clock now (the view refreshes ages every 15 s, hence the lower bound).
    const grantTime = row('consent.grant').getByTestId('ledger-time');
    await expect(grantTime).toHaveText(/^\d+ min ago$/);
    const grantTs = Date.parse((await grantTime.getAttribute('datetime'))!);
    const shownMinutes = Number(/^(\d+) min ago$/.exec((await grantTime.textContent())!)![1]);
    expect(shownMinutes).toBeLessThanOrEqual(Math.floor((Date.now() - grantTs) / 60_000));
    expect(shownMinutes).toBeGreaterThanOrEqual(Math.max(2, Math.floor((Date.now() - grantTs - 20_000) / 60_000)));
    await expect(grantTime).toHaveAttribute('title', /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \(\d{4}-\d\d-\d\dT[\d:.]+Z\)$/);
    await expect(row('consent.request').getByTestId('ledger-time')).toHaveText('3 h ago');
    await expect(row('exec.spawn').getByTestId('ledger-time')).toHaveText(/^(yesterday \d\d:\d\d|2 d ago)$/);
    await row('consent.grant').click();
    const detail = view.getByTestId('ledger-detail');
    await expect(detail.getByTestId('ledger-detail-sentence')).toHaveText('workspace-summary was allowed to read all files in the workspace for 10 minutes');
    await expect(detail.getByTestId('ledger-detail-time')).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \(\d+ min ago; \d{4}-\d\d-\d\dT[\d:.]+Z\)$/);
    await saveScreenshot(page, 'ledger-friendly-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await saveScreenshot(page, 'ledger-friendly-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await detail.getByTestId('ledger-detail-close').click();

    // One filter entry per actor in the ledger, no free text: picking one shows only its entries.
    const actors = view.getByTestId('ledger-actor-filter');
    await expect(actors.locator('option', { hasText: /^notes-agent$/ })).toHaveCount(1);
    await expect(actors.locator('option', { hasText: /^agent:builder$/ })).toHaveCount(1);
    await actors.selectOption('notes-agent');
    await expect(view.getByTestId('ledger-row')).toHaveCount(1);
    await expect(view.getByTestId('ledger-row').first()).toHaveAttribute('data-type', 'consent.request');
    await actors.selectOption('');
    await expect(row('session.create')).toHaveCount(1);
  });

  test('an export popover below its button that withholds only the fields asked, and the verify verdict as a banner', async ({ omni }) => {
    const { page, view } = await openLedger(omni);

    // Export: the popover opens below its button, never over it; Escape closes it and the keyboard is back on the button.
    const exportButton = view.getByTestId('ledger-export');
    await exportButton.click();
    const panel = view.getByTestId('ledger-export-panel');
    await expect(panel.getByTestId('ledger-export-session')).toBeFocused();
    const buttonBox = (await exportButton.boundingBox())!;
    const panelBox = (await panel.boundingBox())!;
    expect(panelBox.y).toBeGreaterThanOrEqual(buttonBox.y + buttonBox.height);
    expect(panelBox.x + panelBox.width).toBeLessThanOrEqual(1000);
    await expect(exportButton).toBeVisible();
    await expect(exportButton).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('Escape');
    await expect(panel).toHaveCount(0);
    await expect(exportButton).toBeFocused();

    // Withholding a field withholds that field: the command's token goes, its argv, folder and HOME stay.
    await exportButton.press('Enter');
    await panel.getByTestId('ledger-export-fields').fill('env.TOKEN');
    await panel.getByTestId('ledger-export-start').click();
    await expect(panel.getByTestId('ledger-export-done')).toContainText(/\(1 withheld, 0 elided/);
    const file = (await panel.getByTestId('ledger-export-file').textContent())!;
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('not-a-real-token');
    const lines = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as ExportLine);
    const spawn = lines.find((line) => line.type === 'exec.spawn')!;
    expect(spawn.payload).toBeNull();
    expect(spawn.redacted).toBe('field:env.TOKEN');
    expect(spawn.disclosed).toEqual({ run_id: 'r1', argv: ['npm', 'test'], cwd: '/srv/app', env: { HOME: '/home/ana' } });
    expect(lines.find((line) => line.type === 'consent.grant')!.payload).toMatchObject({ agentId: 'workspace-summary', scope: '**' });
    const verified = spawnSync(process.execPath, ['dist/cli/omni.cjs', 'ledger', 'verify', '--file', file], { encoding: 'utf8' });
    expect(verified.stdout).toMatch(/^(intact|chain consistent, unsigned): \d+ entries/);
    expect(verified.stdout).toContain('1 entry shows its payload with fields withheld');
    await panel.getByRole('button', { name: 'Close' }).click();
    await expect(exportButton).toBeFocused();

    // Verify: the verdict is a banner across the view, dismissible.
    await view.getByTestId('ledger-verify').click();
    const banner = view.getByTestId('ledger-verify-banner');
    await expect(banner).toHaveAttribute('data-verdict', /^(ok|unsigned)$/, { timeout: 30_000 });
    const viewBox = (await view.boundingBox())!;
    expect((await banner.boundingBox())!.width).toBeGreaterThan(viewBox.width * 0.9);
    await banner.getByTestId('ledger-verify-dismiss').click();
    await expect(banner).toHaveCount(0);

    // Someone edits entry 2 behind the app's back: the banner names it and says what to do.
    const db = openDatabase(databasePath(omni.home));
    try {
      db.exec('DROP TRIGGER audit_ledger_no_update');
      db.prepare(`UPDATE audit_ledger SET payload = '{"capability":"files.write"}' WHERE seq = 2`).run();
    } finally {
      db.close();
    }
    await view.getByTestId('ledger-verify').click();
    await expect(banner).toHaveAttribute('data-verdict', 'bad', { timeout: 30_000 });
    await expect(banner.getByTestId('ledger-verify-result')).toHaveText(/^Not intact: entry 2 is the first bad one: /);
    await expect(banner.getByTestId('ledger-verify-advice')).toContainText('Entries from 2 on cannot be trusted');
    await saveScreenshot(page, 'ledger-verify-broken-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await saveScreenshot(page, 'ledger-verify-broken-dark');
  });
});
