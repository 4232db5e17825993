import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** What a failure prints: enough to find the element and the fix without opening a report. */
function describeViolations(results: Awaited<ReturnType<AxeBuilder['analyze']>>): string[] {
  const lines: string[] = [];
  for (const violation of results.violations) {
    if (violation.impact !== 'serious' && violation.impact !== 'critical') continue;
    for (const node of violation.nodes) {
      const why = node.failureSummary?.split('\n').slice(1).join(' ').trim();
      lines.push(`[${violation.impact}] ${violation.id}: ${violation.help} — at ${node.target.join(' ')}${why ? ` (${why})` : ''}`);
    }
  }
  return lines;
}

/**
 * Waits until nothing on the page is mid-transition (a theme switch fades Pico's buttons): a colour read halfway
 * through a fade is neither theme's. Endless animations (a spinner) are left running: they never settle.
 */
async function settle(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const finite = document.getAnimations().filter((a) => a.effect?.getComputedTiming().iterations !== Infinity);
    await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
  });
}

/**
 * A finding axe gets wrong for one element in one state, which the calling test then proves false by hand (e.g. axe
 * takes anything inside a disabled fieldset for unfocusable, where a browser disables only form controls).
 */
export interface AxeMisread {
  readonly rule: string;
  /** The element's selector exactly as axe prints it. */
  readonly target: string;
}

/**
 * Runs axe-core over the whole page in the light and the dark theme and fails (softly, so one run reports every view)
 * on any violation of serious or critical impact, naming the rule, the element and what to do.
 */
export async function expectAccessible(page: Page, view: string, misreads: readonly AxeMisread[] = []): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await settle(page);
    // The whole page, xterm's screen included (it passes as it is): no rule and no part is left out. Only violations
    // are detailed (axe skips listing every passing node, a good part of a pass's time).
    const found = describeViolations(await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze()).filter((line) => !misreads.some((m) => line.includes(`${m.rule}:`) && line.includes(`at ${m.target} `)));
    expect.soft(found, `axe: serious or critical violations in ${view}, ${colorScheme} theme`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}
