import type { Locator, Page } from '@playwright/test';
import { expect } from './fixtures';

// What the keyboard journeys ask of focus (lib/focus.ts): where it is, that it settled somewhere
// other than the page's body after an action, and that a keyboard user can see it.

/** The focused element as a keyboard user meets it: its tag and its accessible text. */
export const focused = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement;
    return { tag: active?.tagName ?? 'NONE', text: (active?.textContent ?? '').replace(/\s+/g, ' ').trim() };
  });

/** Waits until something other than the page's body has focus, and answers it. */
export async function focusSettled(page: Page): Promise<{ tag: string; text: string }> {
  await expect.poll(async () => (await focused(page)).tag, { message: 'focus fell to the page' }).not.toBe('BODY');
  // The guard looks again for a short while after a list refreshes: what it settles on stays.
  await page.waitForTimeout(700);
  return focused(page);
}

/** Presses a control with the keyboard: focus on it, then Enter. */
export async function press(target: Locator): Promise<void> {
  await target.focus();
  await expect(target).toBeFocused();
  await target.press('Enter');
}

/**
 * The focused control shows that it has focus: an outline or a ring (Tailwind's rings are box
 * shadows), as the browser draws it for a keyboard user (:focus-visible).
 */
export async function expectFocusVisible(page: Page, what: string): Promise<void> {
  const indicator = await page.evaluate(() => {
    const active = document.activeElement;
    if (!(active instanceof HTMLElement) || active === document.body) return 'nothing has focus';
    if (!active.matches(':focus-visible')) return 'none (not :focus-visible)';
    const style = getComputedStyle(active);
    if (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) return `outline ${style.outlineStyle}`;
    if (style.boxShadow && style.boxShadow !== 'none') return 'ring';
    return 'none';
  });
  expect(indicator, `${what}: the focus is visible`).toMatch(/^(outline|ring)/);
}
