// A goal run driven by model-backed agents, end to end in Chromium against the real host (`omni serve` with a REAL
// keychain: a throwaway gnome-keyring in its own dbus-run-session). The only stand-in is the model: a local
// OpenAI-compatible mock server (test/mockProviders), connected through the Connections view as a user connects
// Ollama. The LLM planner's JSON plan lands on the task board, the executor's checkpoint is answered in the dialog,
// and the resumed executor's request to the model carries "User replied: <the option clicked>".
import type { BrowserContext, Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastUserText, startMockProvider, type MockProvider, type MockScript } from '../test/mockProviders';
import { createSession, expectConnected, saveScreenshot, visibleSessionView } from './appDriver';
import { answerConsentCards } from './consentCards';
import { expect, test } from './fixtures';
import { freePort, type HostProcess } from './hostProcess';
import { startHostInPrivateKeyring, stopPrivateKeyringHost } from './privateKeyringHost';
import { installUserAgent } from './userAgent';


const PLAN = {
  tasks: [
    { id: '01', title: 'Choose the auth provider', dependencies: [], agent: 'executor', verifier: 'none' },
    { id: '02', title: 'Write the sign-in page', dependencies: ['01'], agent: 'executor', verifier: 'none' },
  ],
};
const CHECKPOINT = { type: 'checkpoint', reason: 'decision_required', message: 'Which auth provider?', options: ['Auth0', 'Supabase'], resume_id: 'step_2_auth_decision' };

/**
 * The model's side: the planner (the state prompt says "Planning") answers the plan; the executor of task 01 asks
 * which provider, and once resumed with the user's reply uses it; anything else (task 02) is a plain answer.
 */
const modelScript: MockScript = (request) => {
  const text = lastUserText(request) ?? '';
  const replied = /User replied: (\S+)/.exec(text);
  if (replied) return { text: `Configured ${replied[1]} as the auth provider.` };
  if (text.includes('(Planning)')) return { text: JSON.stringify(PLAN) };
  if (text.includes('(Executing Task 01)')) return { text: JSON.stringify(CHECKPOINT) };
  return { text: 'Done.' };
};

/** A model-backed agent (entry *.llm.toml) on the user's OpenAI-compatible connection, with its models named. */
function installModelAgent(home: string, name: string): void {
  installUserAgent(
    home,
    name,
    { entry: 'agent.llm.toml', sandbox: 'wasm', capabilities: ['oauth:openai-compatible.api'], oauthScopes: ['openai-compatible:api'], mem: '64Mi' },
    { 'agent.llm.toml': 'provider = "openai-compatible"\n[models]\nfast = "mock-small"\nsmart = "mock-large"\n' },
  );
}

interface Stage {
  tmp: string;
  home: string;
  host: HostProcess;
  context: BrowserContext;
  page: Page;
  model: MockProvider;
}

test.describe('goal run with model-backed agents', () => {
  test.setTimeout(120_000);
  let stage: Stage;

  test.beforeEach(async ({ webBrowser }) => {
    const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'omni-e2e-goal-llm-')));
    const home = join(tmp, 'home');
    const userHome = join(tmp, 'user');
    mkdirSync(home);
    mkdirSync(userHome);
    mkdirSync(join(tmp, 'workspaces'));
    installModelAgent(home, 'planner');
    installModelAgent(home, 'executor');
    const model = await startMockProvider('chat', { script: modelScript });
    const host = await startHostInPrivateKeyring(await freePort(), home, userHome);
    const context = await (await webBrowser()).newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    const page = await context.newPage();
    await page.goto(host.url);
    stage = { tmp, home, host, context, page, model };
  });

  test.afterEach(async () => {
    const info = test.info();
    if (info.status !== info.expectedStatus) await info.attach('host-output', { body: stage.host.output() });
    await stage.context.close();
    await stopPrivateKeyringHost(stage.host);
    await stage.model.close();
    rmSync(stage.tmp, { recursive: true, force: true });
  });

  test('context.md → Run → the LLM plan on the board → the executor’s checkpoint answered by clicking an option → the model is asked again with that answer', async () => {
    const { page, model } = stage;
    await expectConnected(page);

    // The user connects the local model server, as they would connect Ollama.
    await page.getByRole('tab', { name: 'Connections' }).click();
    const form = page.getByTestId('add-api-key');
    await form.getByLabel('Provider').selectOption('openai-compatible');
    await form.getByLabel('Base URL').fill(model.baseUrl);
    await form.getByLabel('API key').fill(`mock-${randomBytes(16).toString('hex')}`);
    await form.getByRole('button', { name: /add/i }).click();
    await expect(form.getByTestId('add-api-key-result')).toContainText('Added');

    await page.getByRole('tab', { name: 'Session' }).click();
    const workspace = join(stage.tmp, 'workspaces', 'goal-llm');
    mkdirSync(workspace);
    await createSession(page, workspace, 'Goal LLM');
    const view = visibleSessionView(page);
    // Each agent asks for the connection on a consent card; the user answers "Allow for this run" (Allow once) whenever
    // one shows: on a connection card it covers the run, every model call made with its handle included
    // (docs/credentials.md), and the next run asks again.
    const allowed = await answerConsentCards(page, 'consent-allow-once');

    await view.getByTestId('goal-summary').click();
    await view.getByTestId('goal-context-text').fill('# Project: SuperTasker CLI\n\n## Vision\n\nA task CLI with sign-in.\n');
    await view.getByTestId('goal-context-text').press('Control+s');
    await expect(view.getByTestId('goal-context-status')).toHaveText(/^Saved · ledger #\d+$/);
    await view.getByTestId('goal-run').click();

    // No "## Plan" in context.md: the planner agent plans, through the model.
    const tasks = view.getByTestId('goal-task');
    await expect(tasks).toHaveCount(2, { timeout: 30_000 });
    await expect(tasks.nth(0)).toContainText('Choose the auth provider');
    await expect(tasks.nth(1).getByTestId('goal-task-deps')).toHaveText('after 01');
    await expect(view.getByTestId('goal-phase')).toContainText('LLM planner');

    const dialog = page.getByTestId('checkpoint-dialog');
    await expect(dialog.getByTestId('checkpoint-message')).toHaveText('Which auth provider?', { timeout: 30_000 });
    await expect(dialog).toContainText('executor asks for a decision');
    await saveScreenshot(page, 'goal-llm-checkpoint');
    await dialog.getByRole('button', { name: 'Auth0' }).click();
    await expect(dialog).toBeHidden();

    // The executor runs again with resume_data; the model receives the user's reply and the run finishes.
    await expect(view.getByTestId('goal-phase')).toHaveAttribute('data-phase', 'done', { timeout: 30_000 });
    await expect(tasks.nth(0)).toHaveAttribute('data-status', 'complete');
    await expect(tasks.nth(1)).toHaveAttribute('data-status', 'complete');
    const asked = model.turns().map((request) => lastUserText(request) ?? '');
    const resumed = asked.filter((text) => text.includes('User replied: Auth0'));
    expect(resumed).toHaveLength(1);
    expect(resumed[0]).toContain('Task 01: Choose the auth provider');
    expect(asked.filter((text) => text.includes('(Planning)'))).toHaveLength(1);
    expect(allowed).toEqual(expect.arrayContaining(['planner', 'executor']));
    await saveScreenshot(page, 'goal-llm-done');
  });
});
