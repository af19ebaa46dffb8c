import { ADMIN, expect, signInAs, test, waitForHydration, fromOurPages } from './support/fixtures';

// The contact journey: a visitor writes, the message lands in the back office, staff delete it.
test('a visitor sends a message; staff read it in the back office and delete it', async ({ page, browser, checkA11y }) => {
  const subject = `Business account question ${Date.now().toString(36)}`;
  await page.goto('/contact');
  await waitForHydration(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Contact Us');
  // The honeypot is there for bots, invisible to people.
  const trap = page.locator('input[name="website"]');
  expect(
    await trap.evaluate((input) => input.getBoundingClientRect().right <= 0 && input.closest('[aria-hidden="true"]') !== null && input.tabIndex === -1),
  ).toBe(true);

  // A bad email the browser lets through is refused with the spec's message (by the shared contract
  // in the page, before the server would refuse it the same way).
  await page.getByLabel('Name').fill('Robin Park');
  await page.getByLabel('Email').fill('robin@localhost');
  await page.getByLabel('Subject').fill(subject);
  await page.getByLabel('Message').fill('Which documents do I need to open a business account?');
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByRole('alert')).toContainText('There was an error sending your message. Please try again.');
  await expect(page.getByLabel('Subject')).toHaveValue(subject);
  await checkA11y();

  await page.getByLabel('Email').fill('robin.park@example.com');
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Your message has been sent successfully!' })).toBeVisible();
  for (const label of ['Name', 'Email', 'Subject', 'Message']) await expect(page.getByLabel(label)).toHaveValue('');
  await checkA11y();

  // Required fields: the browser stops an empty form before any request.
  let posted = false;
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/api/contacts')) posted = true;
  });
  await page.getByRole('button', { name: 'Send Message' }).click();
  expect(await page.getByLabel('Name').evaluate((input) => (input as HTMLInputElement).validity.valueMissing)).toBe(true);
  expect(posted).toBe(false);

  // The bank was emailed.
  // The mail leaves through the outbox's job, within moments of the message being stored.
  await expect
    .poll(async () => {
      const outbox = (await (await page.request.get('/dev/mailbox?format=json')).json()) as { data: Array<{ subject: string; text: string }> };
      return outbox.data.some((mail) => mail.subject.includes(subject) && mail.text.includes('robin.park@example.com'));
    })
    .toBe(true);

  // Staff: the message is listed as new, and can be deleted.
  const staff = await browser.newContext();
  const admin = await staff.newPage();
  await signInAs(admin, ADMIN, '/admin/login');
  await expect(admin).toHaveURL(/\/admin\/dashboard/);
  await admin.goto('/admin/contacts');
  const item = admin.getByRole('row').filter({ hasText: subject });
  await expect(item).toBeVisible();
  await expect(item).toContainText('Robin Park');
  await expect(item).toContainText('New');
  await checkA11y(admin);

  await item.getByRole('button', { name: `Mark as read: ${subject}` }).click();
  await expect(item.getByRole('button', { name: /^Mark as read/ })).toHaveCount(0);

  await item.getByRole('button', { name: /^Delete message from Robin Park/ }).click();
  await item
    .getByRole('alertdialog', { name: `Delete the message from Robin Park (${subject})? This cannot be undone.` })
    .getByRole('button', { name: 'Delete message' })
    .click();
  await expect(admin.getByText('Contact deleted')).toBeVisible();
  await expect(admin.getByRole('row').filter({ hasText: subject })).toHaveCount(0);
  await staff.close();
});

test("deleting a message someone else already deleted shows 'Error deleting contact'", async ({ page, browser }) => {
  const subject = `Twice deleted ${Date.now().toString(36)}`;
  const sent = await page.request.post('/api/contacts', {
    headers: fromOurPages(),
    data: { name: 'Sam Doe', email: 'sam@example.com', subject, message: 'Hello' },
  });
  expect(sent.status()).toBe(201);
  const id = ((await sent.json()) as { data: { _id: string } }).data._id;

  const staff = await browser.newContext();
  const admin = await staff.newPage();
  // This test expects the 404 answer to the second delete: not an error of the page.
  await signInAs(admin, ADMIN, '/admin/login');
  await expect(admin).toHaveURL(/\/admin\/dashboard/);
  await admin.goto('/admin/contacts');
  const item = admin.getByRole('row').filter({ hasText: subject });
  await expect(item).toBeVisible();
  // Another member of staff deletes it first.
  expect((await admin.request.delete(`/api/contacts/${id}`, { headers: fromOurPages() })).status()).toBe(200);
  await item.getByRole('button', { name: /^Delete message from Sam Doe/ }).click();
  await item.getByRole('button', { name: 'Delete message', exact: true }).click();
  await expect(admin.getByText('Error deleting contact')).toBeVisible();
  await expect(admin.getByRole('row').filter({ hasText: subject })).toHaveCount(0);
  await staff.close();
});
