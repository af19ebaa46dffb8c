import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';

// The home page's hero (spec sections 2 and 9): 7 s autoplay, 1 s fade, looping, pausing on
// hover and keyboard focus, still under prefers-reduced-motion.
const slider = (page: Page) => page.getByTestId('hero-slider');
const activeSlide = (page: Page) => slider(page).locator('[data-active="true"]');
const expectActive = async (page: Page, index: number) => {
  await expect(activeSlide(page)).toHaveCount(1);
  await expect(activeSlide(page)).toHaveAttribute('data-slide-index', String(index));
};
/** The page is hydrated once the slider's effects have run (they set data-autoplay). */
const hydrated = (page: Page) => expect(slider(page)).toHaveAttribute('data-autoplay', /on|off/);
/** Time in the page stands still until the test moves it (clock.runFor). */
async function stillClock(page: Page) {
  const start = new Date('2026-11-21T10:00:00Z');
  await page.clock.install({ time: start });
  await page.clock.pauseAt(new Date(start.getTime() + 1000));
}

test.use({ viewport: { width: 1280, height: 900 } });

test('three slides, advancing every 7 seconds and looping; buttons go to /signin', async ({ page }) => {
  await stillClock(page);
  await page.goto('/');
  await hydrated(page);
  await page.mouse.move(5, 880);
  await expect(slider(page).locator('[data-slide-index]')).toHaveCount(3);
  await expectActive(page, 0);
  await expect(activeSlide(page).getByRole('heading')).toHaveText('Private Banking');

  await page.clock.runFor(6_500);
  await expectActive(page, 0);
  await page.clock.runFor(600);
  await expectActive(page, 1);
  const second = activeSlide(page);
  await expect(second.getByRole('heading', { level: 2 })).toHaveText('Simplified Investment');
  await expect(second.getByText('STARTING AT')).toBeVisible();
  await expect(second.getByText('$0', { exact: true })).toBeVisible();
  await expect(second.getByRole('link', { name: 'INTERNET BANKING' })).toHaveAttribute('href', '/signin');
  await expect(second.getByText('$144/yr')).toBeVisible();
  await expect(second.getByText(/Free Checking/)).toBeVisible();
  await expect(second.getByRole('link', { name: 'Create Account' })).toHaveAttribute('href', '/signin');

  await page.clock.runFor(7_000);
  await expectActive(page, 2);
  await expect(activeSlide(page).getByRole('heading')).toHaveText('Secure Digital Banking');
  await expect(activeSlide(page).getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/signin');
  await page.clock.runFor(7_000);
  await expectActive(page, 0);
  await expect(activeSlide(page).getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/signin');
  // Hidden slides are inert: their buttons take no focus and are not announced.
  await expect(slider(page).locator('[data-active="false"]').first()).toHaveAttribute('aria-hidden', 'true');
  expect(
    await slider(page)
      .locator('[data-active="false"]')
      .first()
      .evaluate((element) => (element as HTMLElement).inert),
  ).toBe(true);
});

// axe waits on page timers, so it runs here, where time is not stopped.
test('slides fade over one second with an opacity transition', async ({ page, checkA11y }) => {
  await page.goto('/');
  await hydrated(page);
  // The pointer over the slider holds the 7-second autoplay, so only the click below moves it
  // (on a loaded machine the axe run alone can outlast one interval).
  await slider(page).hover({ position: { x: 40, y: 40 } });
  await expectActive(page, 0);
  await checkA11y();
  const second = slider(page).locator('[data-slide-index="1"]');
  expect(await second.evaluate((element) => getComputedStyle(element).transitionProperty)).toContain('opacity');
  expect(await second.evaluate((element) => getComputedStyle(element).transitionDuration)).toBe('1s');
  expect(await second.evaluate((element) => getComputedStyle(element).opacity)).toBe('0');
  // Sample the incoming slide's opacity on every frame while it fades in.
  const samples = await page.evaluate(async () => {
    const target = document.querySelector('[data-slide-index="1"]') as HTMLElement;
    (document.querySelector('button[aria-label="Next slide"]') as HTMLButtonElement).click();
    const seen: Array<{ t: number; opacity: number }> = [];
    const start = performance.now();
    await new Promise<void>((resolve) => {
      const frame = () => {
        const t = performance.now() - start;
        seen.push({ t, opacity: Number(getComputedStyle(target).opacity) });
        if (t < 1400) requestAnimationFrame(frame);
        else resolve();
      };
      requestAnimationFrame(frame);
    });
    return seen;
  });
  const midway = samples.filter((sample) => sample.t > 200 && sample.t < 800);
  expect(midway.length).toBeGreaterThan(0);
  for (const sample of midway) {
    expect(sample.opacity).toBeGreaterThan(0);
    expect(sample.opacity).toBeLessThan(1);
  }
  expect(samples.at(-1)?.opacity).toBe(1);
  await expectActive(page, 1);
});

test('stops while keyboard focus is inside, and while the pointer is over it', async ({ page }) => {
  await stillClock(page);
  await page.goto('/');
  await hydrated(page);
  await page.mouse.move(5, 880);
  await expectActive(page, 0);

  await activeSlide(page).getByRole('link', { name: 'Get Started' }).focus();
  await expect(slider(page)).toHaveAttribute('data-autoplay', 'off');
  await page.clock.runFor(30_000);
  await expectActive(page, 0);

  // Focus leaves: it moves again.
  await page.getByRole('link', { name: /LEARN MORE about Personal Checking/ }).focus();
  await expect(slider(page)).toHaveAttribute('data-autoplay', 'on');
  await page.clock.runFor(7_100);
  await expectActive(page, 1);

  await slider(page).hover({ position: { x: 40, y: 40 } });
  await expect(slider(page)).toHaveAttribute('data-autoplay', 'off');
  await page.clock.runFor(30_000);
  await expectActive(page, 1);
  await page.mouse.move(5, 880);
  await page.clock.runFor(7_100);
  await expectActive(page, 2);
});

test('the Pause button stops it; the dots and arrows still move it', async ({ page }) => {
  await stillClock(page);
  await page.goto('/');
  await hydrated(page);
  await page.getByRole('button', { name: 'Pause slideshow' }).click();
  await expect(page.getByRole('button', { name: 'Play slideshow' })).toBeVisible();
  await page.getByRole('link', { name: /LEARN MORE about Savings/ }).focus();
  await page.mouse.move(5, 880);
  await page.clock.runFor(30_000);
  await expectActive(page, 0);
  await page.getByRole('button', { name: 'Show slide 3: Secure Digital Banking' }).click();
  await expectActive(page, 2);
  await page.getByRole('button', { name: 'Next slide' }).click();
  await expectActive(page, 0);
  await page.getByRole('button', { name: 'Previous slide' }).click();
  await expectActive(page, 2);
});

test.describe('with prefers-reduced-motion', () => {
  test.use({ reducedMotion: 'reduce' });
  test('never moves by itself, but can be moved by hand', async ({ page }) => {
    await stillClock(page);
    await page.goto('/');
    await hydrated(page);
    await page.mouse.move(5, 880);
    await expect(slider(page)).toHaveAttribute('data-autoplay', 'off');
    await page.clock.runFor(60_000);
    await expectActive(page, 0);
    await page.getByRole('button', { name: 'Next slide' }).click();
    await expectActive(page, 1);
  });
});
