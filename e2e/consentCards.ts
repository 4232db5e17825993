import { expect, type Locator, type Page } from '@playwright/test';
import { visibleSessionView } from './appDriver';

/** The agent a consent card asks for. */
const agentOf = async (card: Locator): Promise<string> => (await card.getByTestId('consent-agent').innerText()).trim();

/**
 * Answers every consent card of the visible session with `button` (consent-allow-once, consent-allow-for), as the
 * user would, whenever one shows while the test waits for something; returns what `describe` says of each card
 * answered (by default its agent), in order.
 */
export async function answerConsentCards(page: Page, button: 'consent-allow-once' | 'consent-allow-for', describe: (card: Locator) => Promise<string> = agentOf): Promise<string[]> {
  const answered: string[] = [];
  await page.addLocatorHandler(
    visibleSessionView(page).getByTestId('consent-card').first(),
    async (card) => {
      const promptId = await card.getAttribute('data-prompt-id');
      answered.push(await describe(card));
      await card.getByTestId(button).click();
      // This card goes; another may follow at once, and the handler runs again for it (noWaitAfter).
      await expect(page.locator(`[data-testid="consent-card"][data-prompt-id="${promptId}"]`)).toHaveCount(0);
    },
    { noWaitAfter: true },
  );
  return answered;
}
