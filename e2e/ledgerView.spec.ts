import type { Locator, Page } from '@playwright/test';
import { databasePath } from '../src-main/node/home';
import { openDatabase } from '../src-main/node/store/database';
import { appendSyntheticEntries, busyLedgerEntry } from '../test/syntheticLedger';
import { expectConnected, saveScreenshot, sessionItem } from './appDriver';
import { expect, test } from './fixtures';

/** Enough rows that the grid is taller than the 8M px it lays out (28 px rows), so scroll positions are scaled. */
const SEEDED = 400_000;
const BASE_TS = Date.now() - SEEDED * 1000;

/** Entry i of the seed has seq i + 1 (see busyLedgerEntry): the seqs matching `keep`, newest first. */
function seededSeqs(keep: (i: number) => boolean): number[] {
  const seqs: number[] = [];
  for (let i = SEEDED - 1; i >= 0; i--) if (keep(i)) seqs.push(i + 1);
  return seqs;
}

function seedLedger(home: string): void {
  const db = openDatabase(databasePath(home));
  try {
    appendSyntheticEntries(db, SEEDED, busyLedgerEntry(BASE_TS));
  } finally {
    db.close();
  }
}

// A function-valued option is given through a fixture function (a bare function would be taken for one).
// eslint-disable-next-line no-empty-pattern
test.use({ prepareHome: async ({}, use) => use(seedLedger) });

async function totalOf(view: Locator): Promise<number> {
  const total = view.getByTestId('ledger-total');
  await expect(total).toHaveAttribute('data-exact', 'true', { timeout: 20_000 });
  return Number((await total.innerText()).replace(/[^0-9]/g, ''));
}

/** The seqs of the rendered rows, top to bottom. */
async function renderedSeqs(view: Locator): Promise<number[]> {
  return (await view.getByTestId('ledger-row').evaluateAll((rows) => rows.map((row) => Number(row.getAttribute('data-seq')))));
}

async function scrollGrid(grid: Locator, fraction: number): Promise<void> {
  await grid.evaluate((element, f) => {
    element.scrollTop = (element.scrollHeight - element.clientHeight) * f;
  }, fraction);
}

async function newSession(page: Page, workspace: string, name: string): Promise<void> {
  await page.getByTestId('new-session-workspace').fill(workspace);
  await page.getByTestId('new-session-name').fill(name);
  await page.getByRole('button', { name: 'New session' }).click();
  await expect(sessionItem(page, name)).toBeVisible();
}

test.describe('ledger view', () => {
  // Set here, not in the test: the fixture seeds the 400k entries before the test starts, and a timeout set inside
  // the test does not cover that, and on a loaded machine the seed alone can outlast the default.
  test.describe.configure({ timeout: 120_000 });

  test('scrolls, filters, searches and follows a 400k-entry ledger, all from the keyboard where it counts', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    await page.getByTestId('tab-ledger').click();
    const view = page.getByTestId('ledger-view');
    const grid = view.getByTestId('ledger-grid');
    const rows = view.getByTestId('ledger-row');

    // The whole ledger: the seed plus what the host recorded itself (host.start), newest first, counted exactly.
    const total = await totalOf(view);
    expect(total).toBeGreaterThan(SEEDED);
    await expect(rows.first()).toHaveAttribute('data-seq', String(total));
    const seqs = await renderedSeqs(view);
    expect(seqs.length, 'only the rows on screen exist').toBeLessThan(60);
    expect(seqs).toEqual(seqs.map((_, i) => total - i));

    // Keyboard: Home, two rows down, a page down, Enter for the details, Escape to close them.
    await grid.focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect(view.locator('.ledger-row.selected')).toHaveAttribute('data-seq', String(total - 2));
    await page.keyboard.press('PageDown');
    const afterPage = Number(await view.locator('.ledger-row.selected').getAttribute('data-seq'));
    expect(total - 2 - afterPage, 'a page is most of a screenful').toBeGreaterThan(10);
    await page.keyboard.press('Enter');
    const detail = view.getByTestId('ledger-detail');
    await expect(detail.locator('h3')).toContainText(`Entry ${afterPage}`);
    await expect(detail.getByTestId('ledger-detail-payload')).toContainText(`"n": ${afterPage - 1}`);
    await expect(detail.getByTestId('ledger-detail-hash')).toHaveText(/^[0-9a-f]{64}$/);
    await page.keyboard.press('ArrowDown');
    await expect(detail.locator('h3'), 'the details follow the selection').toContainText(`Entry ${afterPage - 1}`);
    await page.keyboard.press('Escape');
    await expect(detail).toHaveCount(0);

    // End: the oldest entry, seq 1, at the bottom.
    await page.keyboard.press('End');
    await expect(view.locator('.ledger-row.selected')).toHaveAttribute('data-seq', '1');
    await expect(rows.last()).toHaveAttribute('data-seq', '1');
    await saveScreenshot(page, 'ledger-view-bottom');

    // The middle, by dragging the scrollbar there: consecutive entries from around the middle of the ledger.
    await scrollGrid(grid, 0.5);
    await expect.poll(async () => (await renderedSeqs(view))[0] ?? 0).toBeGreaterThan(total / 2 - 50);
    const middle = await renderedSeqs(view);
    expect(middle[0]).toBeLessThan(total / 2 + 50);
    expect(middle).toEqual(middle.map((_, i) => middle[0] - i));

    // One session (of the seed's forty, not in the sidebar, so listed by id): counted exactly, newest first.
    const session = seededSeqs((i) => i % 40 === 7 && i % 50 !== 0);
    await view.getByTestId('ledger-session-filter').selectOption({ label: 'ses_7' });
    expect(await totalOf(view)).toBe(session.length);
    await expect
      .poll(async () => {
        const shown = await renderedSeqs(view);
        return shown.length > 5 && shown.every((seq, i) => seq === session[i]);
      })
      .toBe(true);
    await scrollGrid(grid, 1);
    await expect(rows.last()).toHaveAttribute('data-seq', String(session.at(-1)));

    // The agent and a type family on top of it (this session's entries are all file.write), then one that is not.
    await view.getByTestId('ledger-actor-filter').selectOption('user');
    await view.getByTestId('ledger-type-filter').fill('file.*');
    const narrowed = seededSeqs((i) => i % 40 === 7 && i % 50 !== 0 && i % 3 === 0);
    expect(await totalOf(view)).toBe(narrowed.length);
    await expect(rows.first()).toHaveAttribute('data-seq', String(narrowed[0]));
    await view.getByTestId('ledger-type-filter').fill('terminal.*');
    expect(await totalOf(view)).toBe(0);
    await expect(view.getByText('No ledger entries match.')).toBeVisible();
    await view.getByTestId('ledger-type-filter').fill('FILE.WRITE');
    expect(await totalOf(view)).toBe(narrowed.length);
    await expect(rows.first()).toHaveAttribute('data-seq', String(narrowed[0]));

    // Search, focused with "/": a payload substring (1 match in the whole ledger), then a common one.
    await view.getByTestId('ledger-clear-filters').click();
    await grid.focus();
    await page.keyboard.press('/');
    await expect(view.getByTestId('ledger-search')).toBeFocused();
    await page.keyboard.type('"n":123456}');
    expect(await totalOf(view)).toBe(1);
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toHaveAttribute('data-seq', '123457');
    const common = seededSeqs((i) => i % 997 === 42);
    await view.getByTestId('ledger-search').fill('project-42"');
    expect(await totalOf(view)).toBe(common.length);
    await expect(rows.first()).toHaveAttribute('data-seq', String(common[0]));
    await saveScreenshot(page, 'ledger-view-search');

    // The time filter: the seed's first 100 seconds.
    await view.getByTestId('ledger-search').fill('');
    const local = (ms: number): string => {
      const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
      return d.toISOString().slice(0, 16);
    };
    await view.getByTestId('ledger-to').fill(local(BASE_TS + 40 * 60_000));
    await view.getByTestId('ledger-from').fill(local(BASE_TS + 20 * 60_000));
    const from = Math.floor((BASE_TS + 20 * 60_000) / 60_000) * 60_000;
    const to = Math.floor((BASE_TS + 40 * 60_000) / 60_000) * 60_000 + 60_000;
    const inRange = seededSeqs((i) => BASE_TS + i * 1000 >= from && BASE_TS + i * 1000 < to);
    expect(await totalOf(view)).toBe(inRange.length);
    await expect(rows.first()).toHaveAttribute('data-seq', String(inRange[0]));
    await view.getByTestId('ledger-clear-filters').click();

    // Live: at the top a new entry appears as it is recorded...
    await expect(rows.first()).toHaveAttribute('data-seq', String(total));
    await newSession(page, omni.newWorkspace('live'), 'Live one');
    await expect(rows.first()).toHaveAttribute('data-type', 'session.create');
    await expect(view.getByTestId('ledger-total')).toHaveText(`${(total + 1).toLocaleString('en-US')} entries`);

    // ...scrolled away, it is only counted until asked for...
    await scrollGrid(grid, 0.25);
    await newSession(page, omni.newWorkspace('later'), 'Live two');
    const more = view.getByTestId('ledger-new-entries');
    await expect(more).toHaveText('↑ 1 new entry');
    await more.click();
    await expect(rows.first()).toHaveAttribute('data-type', 'session.create');
    await expect(rows.first()).toHaveAttribute('data-seq', String(total + 2));
    await expect(more).toHaveCount(0);

    // ...and one the filter excludes neither appears nor is counted.
    await view.getByTestId('ledger-type-filter').fill('terminal.*');
    const terminalTotal = await totalOf(view);
    await newSession(page, omni.newWorkspace('hidden'), 'Not a terminal');
    await page.waitForTimeout(500); // Give a wrongly shown entry time to appear.
    expect(await totalOf(view)).toBe(terminalTotal);
    await expect(rows.first()).toHaveAttribute('data-type', /^terminal\./);
    await expect(more).toHaveCount(0);
    await view.getByTestId('ledger-clear-filters').click();

    // Verify still re-checks the whole chain: 400k seeded entries and the host's own are intact.
    await view.getByTestId('ledger-verify').click();
    await expect(view.getByTestId('ledger-verify-result')).toHaveText(/^(Intact: \d+ entries, head [0-9a-f]{16}…, last signed checkpoint at seq \d+|Chain consistent, unsigned: \d+ entries, head [0-9a-f]{16}…; no signed checkpoint, so this proves nothing about who wrote it)$/, { timeout: 30_000 });
    await saveScreenshot(page, 'ledger-view');
  });
});
