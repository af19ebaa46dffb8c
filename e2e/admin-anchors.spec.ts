import fs from 'node:fs';
import path from 'node:path';
import { ADMIN, expect, signInAs, tabTo, test } from './support/fixtures';

// The general ledger page's anchors (ADR 014): staff anchor both chain heads with the keyboard,
// see the new anchor listed, find its line in ANCHOR_FILE, and verification holds the chains
// against every anchor. At a phone's width and a laptop's.

const anchorFile = path.join(`/tmp/ledgerline-e2e-${Number(process.env.E2E_PORT ?? 3100)}`, 'anchors.jsonl');

for (const width of [375, 1280]) {
  test(`staff anchor both chains and verify against the anchors at ${width} px`, async ({ page, checkA11y }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: 900 });
    await signInAs(page, ADMIN, '/admin/login');
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await page.goto('/admin/ledger');
    await expect(page.getByRole('heading', { name: 'General ledger', level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Anchors', level: 2 })).toBeVisible();
    await checkA11y();

    const anchorNow = page.getByRole('button', { name: 'Anchor now' });
    await tabTo(page, anchorNow);
    await page.keyboard.press('Enter');
    const written = page.getByRole('status').filter({ hasText: /^Anchor \d+ written: ledger chain at position \d+, audit chain at position \d+\.$/ });
    await expect(written).toBeVisible({ timeout: 30_000 });
    const seq = Number((await written.textContent())!.match(/^Anchor (\d+)/)![1]);

    // Newest first, with who asked for it; and the same anchor is the file's line for that seq.
    const newest = page.getByTestId('anchor').first();
    await expect(newest.getByRole('heading', { name: `Anchor ${seq}`, level: 3 })).toBeVisible();
    await expect(newest).toContainText(`Anchor now, by ${ADMIN.email}`);
    const line = fs
      .readFileSync(anchorFile, 'utf8')
      .split('\n')
      .map((text) => (text ? (JSON.parse(text) as { seq: number; ledgerHead: { hash: string } }) : null))
      .find((anchor) => anchor?.seq === seq);
    expect(line).toBeDefined();
    await expect(newest).toContainText(line!.ledgerHead.hash);
    // The page settled: the button is back (its colour then eases in, which checkA11y waits out).
    // Checked while it was still coming back, axe once measured a frame of that transition.
    await expect(page.getByRole('button', { name: 'Anchor now' })).toBeEnabled();
    await checkA11y();
    await page.screenshot({ path: test.info().outputPath(`ledger-anchors-${width}.png`), fullPage: true });

    await tabTo(page, page.getByRole('button', { name: 'Verify the ledger' }));
    await page.keyboard.press('Enter');
    await expect(
      page.getByRole('status').filter({ hasText: /^OK: .*; \d+ audit records on the audit chain[^;]*; (1 anchor matches|\d+ anchors match), newest at \S+\./ }),
    ).toBeVisible({ timeout: 30_000 });
    await checkA11y();
  });
}
