// Issue 23, items 3, 9 and 11: each outcome its own chip, a run's denied calls on its card, the launcher's catalog
// (descriptions, examples, no internal agent), and agent cards that come back whole after the host is killed.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator } from '@playwright/test';
import { createSession, expectConnected, saveScreenshot, visibleSessionView } from './appDriver';
import { expect, test, type OmniApp } from './fixtures';

interface Wabt {
  parseWat(name: string, text: string): { toBinary(options: object): { buffer: Uint8Array }; destroy(): void };
}

/** A user agent whose omni_invoke is `body` (WAT): traps, loops… the real WASM sandbox runs it. */
async function installAgent(home: string, name: string, body: string, cpu = '250m'): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const wabt = await (require('wabt') as () => Promise<Wabt>)();
  const wat = `(module
  (memory (export "memory") 1)
  (func (export "omni_alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "omni_invoke") (param i32 i32) ${body}))`;
  const parsed = wabt.parseWat(`${name}.wat`, wat);
  const binary = parsed.toBinary({}).buffer;
  parsed.destroy();
  const folder = join(home, 'agents', name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'agent.wasm'), binary);
  writeFileSync(
    join(folder, 'manifest.toml'),
    ['schema_version = "0.1"', `name = "${name}"`, 'version = "1.0.0"', 'entry = "agent.wasm"', 'sandbox = "wasm"', 'capabilities = []', 'oauth_scopes = []', `resources.cpu = "${cpu}"`, 'resources.mem = "32Mi"', 'ui.hints = ["streaming"]', ''].join('\n'),
  );
}

async function installTestAgents(home: string): Promise<void> {
  await installAgent(home, 'crasher', 'unreachable');
  // Two cores' CPU budget: spinning on one, it reaches the wall-clock deadline first (the outcome under test).
  await installAgent(home, 'spinner', '(loop $forever (br $forever))', '2');
}

/** A session on a workspace with a few files and a README (what workspace-summary reads). */
async function sessionWithFiles(omni: OmniApp, name: string): Promise<Locator> {
  const workspace = omni.newWorkspace(name.toLowerCase());
  writeFileSync(join(workspace, 'README.md'), '# Demo\n\nA small demo workspace.\n');
  writeFileSync(join(workspace, 'a.ts'), 'export const a = 1;\n');
  writeFileSync(join(workspace, 'b.ts'), 'export const b = 2;\n');
  await omni.page.getByTestId('tab-session').click();
  await createSession(omni.page, workspace, name);
  return visibleSessionView(omni.page);
}

/** Starts `agent` with `prompt` from the session's launcher; returns its card (the newest run is listed first). */
async function start(session: Locator, agent: string, prompt: string): Promise<Locator> {
  const before = await session.getByTestId('run-card').count();
  await session.getByTestId('agent-select').selectOption(agent);
  await session.getByTestId('agent-prompt').fill(prompt);
  await session.getByTestId('agent-prompt').press('Enter');
  await expect(session.getByTestId('run-card')).toHaveCount(before + 1);
  return session.locator('[data-testid="run-card"]', { hasText: prompt }).first();
}

async function expectChip(run: Locator, kind: string, word: string): Promise<void> {
  const chip = run.getByTestId('run-state');
  await expect(chip).toHaveAttribute('data-outcome-kind', kind, { timeout: 30_000 });
  await expect(chip).toHaveText(word);
  // Never colour alone: an icon beside the word.
  expect(await chip.evaluate((el) => getComputedStyle(el, '::before').content)).not.toBe('none');
}

/** The chip's text and background colours: they must differ between outcomes and between themes. */
async function chipColours(run: Locator): Promise<string> {
  return run.getByTestId('run-state').evaluate((el) => {
    const style = getComputedStyle(el);
    return `${style.color} on ${style.backgroundColor}`;
  });
}

async function summaryAsks(session: Locator, prompt: string): Promise<{ run: Locator; consent: Locator }> {
  const run = await start(session, 'workspace-summary', prompt);
  const consent = session.getByTestId('consent-card');
  await expect(consent).toHaveCount(1, { timeout: 15_000 });
  await expect(consent.getByTestId('consent-capability')).toHaveText('files.read');
  return { run, consent };
}

test.describe('outcomes', () => {
  // eslint-disable-next-line no-empty-pattern
  test.use({ prepareHome: async ({}, use) => use(installTestAgents) });

  test('the launcher shows what each agent is for with an example, offers no internal agent, and starts on one that only reads', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    const session = await sessionWithFiles(omni, 'Catalog');
    const select = session.getByTestId('agent-select');
    await expect(select).toHaveValue('workspace-summary');
    const offered = await select.locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
    expect(offered).toEqual(expect.arrayContaining(['http-check', 'scaffolder', 'workspace-summary']));
    expect(offered).not.toContain('executor');
    expect(offered).not.toContain('verifier');

    const blurb = session.getByTestId('agent-blurb');
    await expect(blurb.getByTestId('agent-blurb-description')).toContainText('What is in this workspace?');
    await session.getByTestId('agent-example').click();
    await expect(session.getByTestId('agent-prompt')).toHaveValue('Summarise this workspace');
    await expect(session.getByTestId('agent-prompt')).toBeFocused();

    await select.selectOption('http-check');
    await expect(blurb.getByTestId('agent-blurb-description')).toContainText('Fetches a URL');
    await expect(session.getByTestId('agent-example')).toHaveText('https://example.com');

    // The Agents view still lists the internal ones, saying who runs them, with their descriptions.
    await page.getByTestId('tab-agents').click();
    const executor = page.locator('[data-testid="agent-manifest"][data-agent="executor"]');
    await expect(executor.getByTestId('agent-internal')).toBeVisible();
    await expect(executor.getByTestId('agent-use')).toHaveCount(0);
    await expect(page.locator('[data-testid="agent-manifest"][data-agent="scaffolder"]').getByTestId('agent-description')).toContainText('TypeScript library');
    await page.getByTestId('tab-session').click();
    await saveScreenshot(page, 'outcomes-launcher');
  });

  test('completed, denied (its denied call listed: what, when, why), cancelled, failed: each its own chip, in light and dark', async ({ omni }) => {
    test.setTimeout(90_000);
    const { page } = omni;
    await expectConnected(page);

    const session = await sessionWithFiles(omni, 'Outcomes');

    // Denied: the user says no, and the card lists the refused call.
    const { run: denied, consent: asking } = await summaryAsks(session, 'summarise, refused');
    await asking.getByTestId('consent-deny').click();
    await expectChip(denied, 'denied', 'Denied');
    const call = denied.getByTestId('run-denied-call');
    await expect(call).toHaveCount(1);
    await expect(call).toHaveAttribute('data-capability', 'files.read');
    await expect(call).toContainText('the user denied it');
    await expect(call.locator('time')).toHaveAttribute('datetime', /^\d{4}-\d\d-\d\dT/);

    // Completed: asked again and allowed, it summarises; the read it tried before asking is not a denial.
    const { run: completed, consent } = await summaryAsks(session, 'summarise, allowed');
    await consent.getByTestId('consent-allow-for').click();
    await expectChip(completed, 'completed', 'Completed');
    await expect(completed.getByTestId('markdown-body')).toContainText('files in');
    await expect(completed.getByTestId('run-denied')).toHaveCount(0);

    // Cancelled: stopped while it waits for an answer.
    const cancelled = await start(session, 'http-check', 'https://example.org/cancel-me');
    await expect(session.getByTestId('consent-card')).toHaveCount(1, { timeout: 15_000 });
    await cancelled.getByTestId('run-stop').click();
    await expectChip(cancelled, 'cancelled', 'Cancelled');
    // The prompt it was waiting on is withdrawn, which is not a call the user denied.
    await expect(cancelled.getByTestId('run-denied')).toHaveCount(0);

    // Failed: an agent whose module traps.
    const failed = await start(session, 'crasher', 'crash now');
    await expectChip(failed, 'failed', 'Failed');
    await expect(failed.getByTestId('run-error').first()).toContainText('trap');

    const light = [await chipColours(completed), await chipColours(denied), await chipColours(cancelled), await chipColours(failed)];
    expect(new Set(light).size, `four outcomes, four colourings: ${light.join(' | ')}`).toBe(4);
    await saveScreenshot(page, 'outcomes-chips-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    const dark = [await chipColours(completed), await chipColours(denied), await chipColours(cancelled), await chipColours(failed)];
    expect(new Set(dark).size).toBe(4);
    for (let i = 0; i < 4; i++) expect(dark[i], 'the dark theme has its own chip colours').not.toBe(light[i]);
    await saveScreenshot(page, 'outcomes-chips-dark');
  });

  test('partly denied: allowed once, then a later read refused; the chip says so, never "Completed", and lists the refused read', async ({ omni }) => {
    test.setTimeout(90_000);
    const { page } = omni;
    await expectConnected(page);
    const session = await sessionWithFiles(omni, 'Partly');
    const { run, consent } = await summaryAsks(session, 'summarise, partly');
    await consent.getByTestId('consent-allow-once').click();
    // Its next read asks again (the "Allow once" is spent); this one the user refuses.
    const again = session.getByTestId('consent-card');
    await expect(again).toHaveCount(1, { timeout: 15_000 });
    await again.getByTestId('consent-deny').click();
    await expectChip(run, 'partly-denied', 'Partly denied');
    const refused = run.getByTestId('run-denied-call');
    await expect(refused.first()).toHaveAttribute('data-capability', 'files.read');
    await expect(refused.first()).toContainText('the user denied it');
    await saveScreenshot(page, 'outcomes-partly-denied');
  });

  test('an agent card comes back whole after the host is killed; a run it was in the middle of says it was interrupted', async ({ omni }) => {
    test.setTimeout(90_000);
    const { page } = omni;
    await expectConnected(page);
    const session = await sessionWithFiles(omni, 'Survivor');
    const { run: done, consent } = await summaryAsks(session, 'summarise before the crash');
    await consent.getByTestId('consent-allow-for').click();
    await expectChip(done, 'completed', 'Completed');
    const before = (await done.getByTestId('markdown-body').textContent()) ?? '';
    expect(before).toContain('README.md');

    // A second run is waiting for consent when the host dies.
    const waiting = await start(session, 'http-check', 'https://example.org/mid-flight');
    await expect(session.getByTestId('consent-card')).toHaveCount(1, { timeout: 15_000 });
    await expect(waiting).toContainText('Checking https://example.org/mid-flight');

    await omni.restartHost();
    // A fresh page: nothing of the old runs is left in memory, so whatever shows comes from the restarted host.
    await page.reload();
    await expectConnected(page);
    await page.getByTestId('session-item').filter({ hasText: 'Survivor' }).click();
    const again = visibleSessionView(page);
    const restored = again.locator('[data-testid="run-card"]', { hasText: 'summarise before the crash' });
    await expectChip(restored, 'completed', 'Completed');
    await expect(restored.getByTestId('markdown-body')).toHaveText(before);
    await expect(restored.getByTestId('run-stop')).toHaveCount(0);

    const interrupted = again.locator('[data-testid="run-card"]', { hasText: 'mid-flight' });
    await expectChip(interrupted, 'interrupted', 'Interrupted');
    await expect(interrupted).toContainText('Checking https://example.org/mid-flight');
    await expect(interrupted.getByTestId('run-error').first()).toContainText('the host stopped while this run was going');
    await saveScreenshot(page, 'outcomes-after-restart');
  });
});

test.describe('outcomes with a short step timeout', () => {
  // eslint-disable-next-line no-empty-pattern
  test.use({ prepareHome: async ({}, use) => use(installTestAgents), hostEnv: { OMNI_AGENT_STEP_TIMEOUT: '2' } });

  test('an agent that never returns is stopped at the timeout and says "Timed out"', async ({ omni }) => {
    test.setTimeout(60_000);
    const { page } = omni;
    await expectConnected(page);
    const session = await sessionWithFiles(omni, 'Slow');
    const run = await start(session, 'spinner', 'spin forever');
    await expectChip(run, 'timed-out', 'Timed out');
    await expect(run).toHaveAttribute('data-outcome', 'timeout');
  });
});
