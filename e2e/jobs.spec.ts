import { ADMIN, expect, signInAs, tabTo, test } from './support/fixtures';
import { queueFailingJob } from './support/jobs';

// The back office's queue page: a job that fails for real (a payload its task refuses, one
// attempt), found under Failed with its error and retried with the keyboard only. Under All a
// retried job stays listed (now waiting) while its Retry goes: focus stays in its row.

for (const width of [375, 1280]) {
  test(`staff find a failed job with its error and retry it with the keyboard at ${width} px`, async ({ page, checkA11y }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: 900 });
    const id = await queueFailingJob();
    const underAll = await queueFailingJob();
    await signInAs(page, ADMIN, '/admin/login');
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await page.goto('/admin/jobs');
    await expect(page.getByRole('heading', { name: 'Background jobs', level: 1 })).toBeVisible();
    await checkA11y();

    // The runner picks the job up at once and it fails; the page lists it under Failed with the error.
    await expect
      .poll(async () =>
        ((await (await page.request.get('/api/admin/jobs?state=failed')).json()) as { data: { items: Array<{ id: string }> } }).data.items.map((job) => job.id),
      )
      .toEqual(expect.arrayContaining([id, underAll]));
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Background jobs', level: 1 })).toBeVisible();

    // Under All (the page's default) the retried job's row stays, without its Retry: focus must
    // not fall back to the page's heading (or the body) but stay in that row.
    const allRow = page.getByRole('row').filter({ has: page.getByRole('cell', { name: underAll, exact: true }) });
    await tabTo(page, allRow.getByRole('button', { name: `Retry job ${underAll}` }));
    await page.keyboard.press('Enter');
    await expect(page.getByText('The job will run again now.')).toBeVisible();
    // Once the busy label goes the list has been refetched; focus is put back a moment later.
    await expect(allRow.getByRole('button', { name: /Retrying/ })).toHaveCount(0);
    await expect.poll(() => allRow.evaluate((row) => row.contains(document.activeElement))).toBe(true);
    await checkA11y();

    const failedTab = page.getByRole('button', { name: /^Failed/ });
    await tabTo(page, failedTab);
    await page.keyboard.press('Enter');
    await expect(failedTab).toHaveAttribute('aria-pressed', 'true');
    await expect(page).toHaveURL(/state=failed/);
    const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: id, exact: true }) });
    await expect(row).toContainText('Failed');
    await expect(row).toContainText(/Invalid input|expected number/i);
    await checkA11y();

    // The first retry's toast lasts four seconds; once it has gone, the next one is this retry's.
    await expect(page.getByText('The job will run again now.')).toHaveCount(0);
    const retry = row.getByRole('button', { name: `Retry job ${id}` });
    await tabTo(page, retry);
    await page.keyboard.press('Enter');
    await expect(page.getByText('The job will run again now.')).toBeVisible();
    await checkA11y();

    // The retry is in the audit log.
    await page.goto('/admin/audit');
    await expect(page.getByRole('table').getByText('job.retry').first()).toBeVisible();
  });
}
