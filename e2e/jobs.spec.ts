import { ADMIN, expect, signInAs, tabTo, test } from './support/fixtures';
import { queueFailingJob } from './support/jobs';

// The back office's queue page: a job that fails for real (a payload its task refuses, one
// attempt), found under Failed with its error and retried with the keyboard only.

for (const width of [375, 1280]) {
  test(`staff find a failed job with its error and retry it with the keyboard at ${width} px`, async ({ page, checkA11y }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: 900 });
    const id = await queueFailingJob();
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
      .toContain(id);
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Background jobs', level: 1 })).toBeVisible();
    const failedTab = page.getByRole('button', { name: /^Failed/ });
    await tabTo(page, failedTab);
    await page.keyboard.press('Enter');
    await expect(failedTab).toHaveAttribute('aria-pressed', 'true');
    await expect(page).toHaveURL(/state=failed/);
    const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: id, exact: true }) });
    await expect(row).toContainText('Failed');
    await expect(row).toContainText(/Invalid input|expected number/i);
    await checkA11y();

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
