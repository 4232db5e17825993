import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Presses Tab (or Shift+Tab) until `target` has the focus, as a keyboard user would, and fails if it is not reached
 * within `limit` presses; then checks that the focused control shows a focus ring.
 */
export async function tabTo(page: Page, target: Locator, what: string, { limit = 60, backwards = false } = {}): Promise<void> {
  await expect(target, `${what} is on the page`).toBeVisible();
  const key = backwards ? 'Shift+Tab' : 'Tab';
  const visited: string[] = [];
  for (let i = 0; i < limit; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) {
      await expectFocusRing(target, what);
      return;
    }
    await page.keyboard.press(key);
    visited.push(await page.evaluate(() => {
      const el = document.activeElement;
      if (!el) return '(nothing)';
      return el.getAttribute('data-testid') ?? el.getAttribute('aria-label') ?? `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}`;
    }));
  }
  throw new Error(`${what} was not reached with ${limit} presses of ${key}; the focus went through: ${visited.join(' → ')}`);
}

/** The focused element draws a ring: an outline or a box-shadow while it matches :focus-visible. */
export async function expectFocusRing(target: Locator, what: string): Promise<void> {
  const ring = await target.evaluate((el) => {
    const style = getComputedStyle(el);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0 && !/rgba\(.*, 0\)$/.test(style.outlineColor);
    const shadow = style.boxShadow !== 'none' && !/^rgba\(0, 0, 0, 0\) 0px 0px 0px 0px$/.test(style.boxShadow);
    return { focusVisible: el.matches(':focus-visible'), outline, shadow, detail: `outline ${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}; box-shadow ${style.boxShadow}` };
  });
  expect(ring.focusVisible, `${what} matches :focus-visible when reached by Tab`).toBe(true);
  expect(ring.outline || ring.shadow, `${what} shows a focus ring (${ring.detail})`).toBe(true);
}
