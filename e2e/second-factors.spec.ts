import type { Page } from '@playwright/test';
import { staffCode, totpStepAt } from '../tests/support/totp';
import { expect, fromOurPages, lookAtBothWidths, newCustomer, signInAs, tabTo, test, virtualAuthenticator } from './support/fixtures';

// Second factors in the browser (issue 13, ADR 011): a passkey registered with Chromium's virtual
// authenticator (the DevTools WebAuthn domain), then used alone and as the second step; an
// authenticator app set up from its key, then a sign-in with its code, a replayed code refused,
// and a sign-in with a recovery code. Each test has its own customer.

async function signOut(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Account' }).first().getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
  expect((await page.request.get('/api/auth/user')).status()).toBe(401);
}

/**
 * The authenticator key's lines, each as the characters on it (by the top of each character's box):
 * a narrow screen may wrap the key, but between its groups of four, never inside one.
 */
async function keyLines(page: Page): Promise<string[]> {
  return page.getByTestId('totp-secret').evaluate((code) => {
    const lines = new Map<number, string>();
    const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      for (let index = 0; index < text.length; index += 1) {
        range.setStart(node, index);
        range.setEnd(node, index + 1);
        const box = range.getClientRects()[0];
        // A space a line ends at has no box of its own on either line.
        if (!box || box.width === 0) continue;
        const top = Math.round(box.top);
        lines.set(top, (lines.get(top) ?? '') + text[index]);
      }
    }
    return [...lines.entries()].sort(([a], [b]) => a - b).map(([, line]) => line.trim());
  });
}

test('a passkey: registered on the security page, then signing in with it alone, and as the second step after the password', async ({
  page,
  request,
  checkA11y,
}) => {
  test.setTimeout(120_000);
  const customer = await newCustomer(request, page, { firstName: 'Parker', lastName: 'Factors', prefix: 'factors' });
  const { cdp, authenticatorId } = await virtualAuthenticator(page);

  // Signed in with the password alone: the dashboard suggests a second factor.
  await signInAs(page, customer);
  await expect(page).toHaveURL(/\/account\/home$/);
  const prompt = page.getByRole('region', { name: 'Protect your account with a second factor' });
  await expect(prompt).toBeVisible();
  await checkA11y();
  await prompt.getByRole('link', { name: 'Set up a second factor' }).click();
  await expect(page).toHaveURL(/\/account\/security$/);
  await expect(page.getByRole('heading', { name: 'Second factors' })).toBeVisible();
  await lookAtBothWidths(page, 'security-no-factor', checkA11y);

  // Register, with a name, from the keyboard.
  await tabTo(page, page.getByLabel('Passkey name (optional)'));
  await page.keyboard.type('Work laptop');
  await page.keyboard.press('Enter');
  await expect(page.getByText('Passkey added.').first()).toBeVisible();
  const passkeys = page.getByRole('list', { name: 'Your passkeys' });
  await expect(passkeys.getByRole('listitem')).toHaveCount(1);
  await expect(passkeys.getByRole('listitem')).toContainText('Work laptop');
  await expect(passkeys.getByRole('listitem')).toContainText('not used yet');
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]!.isResidentCredential).toBe(true);
  expect(credentials[0]!.rpId).toBe('localhost');

  // Renamed.
  await passkeys.getByRole('button', { name: 'Rename passkey Work laptop' }).click();
  await page.getByLabel('New name').fill('Chromium on this laptop');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(passkeys.getByRole('listitem')).toContainText('Chromium on this laptop');
  await lookAtBothWidths(page, 'security-passkey', checkA11y);

  // Signed out, in again with the passkey alone: no password typed.
  await signOut(page);
  await page.goto('/signin');
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page).toHaveURL(/\/account\/home$/);
  // With a factor, the dashboard no longer suggests one.
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Protect your account with a second factor' })).toHaveCount(0);
  const afterPasskey = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(afterPasskey.credentials[0]!.signCount).toBeGreaterThan(credentials[0]!.signCount);

  // The password now leads to the second step, where the passkey finishes the sign-in.
  await signOut(page);
  await signInAs(page, customer);
  await expect(page.getByRole('heading', { name: "Confirm it's you" })).toBeVisible();
  await expect(page).toHaveURL(/\/signin$/);
  await lookAtBothWidths(page, 'signin-second-step-passkey', checkA11y);
  await page.getByRole('button', { name: 'Use my passkey' }).click();
  await expect(page).toHaveURL(/\/account\/home$/);
});

test('an authenticator app: set up with its key, recovery codes saved, then sign-ins with a code (once) and with a recovery code', async ({
  page,
  request,
  checkA11y,
}) => {
  test.setTimeout(120_000);
  const customer = await newCustomer(request, page, { firstName: 'Tova', lastName: 'Factors', prefix: 'factors' });
  await signInAs(page, customer);
  await expect(page).toHaveURL(/\/account\/home$/);
  await page.goto('/account/security');
  await expect(page.getByRole('heading', { name: 'Authenticator app' })).toBeVisible();

  await tabTo(page, page.getByRole('button', { name: 'Set up an authenticator app' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('img', { name: 'QR code to add this account to your authenticator app' })).toBeVisible();
  const secret = (await page.getByTestId('totp-secret').innerText()).replaceAll(' ', '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  // At a phone's width the key takes more than one line, and each line holds whole groups of four.
  await page.setViewportSize({ width: 375, height: 900 });
  const lines = await keyLines(page);
  expect(lines.length, lines.join(' / ')).toBeGreaterThan(1);
  for (const line of lines) expect(line, lines.join(' / ')).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{4})*$/);
  expect(lines.join(' ').replaceAll(' ', '')).toBe(secret);
  await lookAtBothWidths(page, 'totp-enrolment', checkA11y);

  const confirmStep = totpStepAt(new Date());
  await page.getByLabel('Code from the app').fill(staffCode(confirmStep, secret));
  await page.getByRole('button', { name: 'Turn on' }).click();
  // The recovery codes, once, with the step that says to save them.
  await expect(page.getByRole('heading', { name: 'Save your recovery codes now' })).toBeFocused();
  const codes = await page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').allInnerTexts();
  expect(codes).toHaveLength(10);
  const done = page.getByRole('button', { name: 'Done' });
  await expect(done).toBeDisabled();
  await lookAtBothWidths(page, 'totp-recovery-codes', checkA11y);
  await tabTo(page, page.getByLabel('I have saved my recovery codes'));
  await page.keyboard.press('Space');
  await expect(done).toBeEnabled();
  await done.click();
  await expect(page.getByText('10 of 10 recovery codes left.')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Recovery codes' })).toHaveCount(0);

  // Signed out; in again: the password, then a code from the app (the next step's: the first is spent).
  await signOut(page);
  await signInAs(page, customer);
  await expect(page.getByRole('heading', { name: "Confirm it's you" })).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Authenticator app' })).toBeChecked();
  await lookAtBothWidths(page, 'signin-second-step-code', checkA11y);
  const code = staffCode(confirmStep + 1, secret);
  await page.getByLabel('Authenticator code').fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/account\/home$/);

  // The same code again, by someone who saw it: refused, and the page says why.
  await signOut(page);
  await signInAs(page, customer);
  await page.getByLabel('Authenticator code').fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert')).toContainText('This code has already been used. Wait for the next code from your app. 4 attempts left.');
  await expect(page).toHaveURL(/\/signin$/);

  // A recovery code instead, chosen with the keyboard, typed in capitals.
  await page.getByRole('radio', { name: 'Recovery code' }).check();
  await page.getByRole('textbox', { name: 'Recovery code' }).fill(codes[0]!.toUpperCase());
  await page.getByRole('textbox', { name: 'Recovery code' }).press('Enter');
  await expect(page).toHaveURL(/\/account\/home$/);
  await page.goto('/account/security');
  await expect(page.getByText('9 of 10 recovery codes left.')).toBeVisible();

  // The used recovery code does not work twice.
  await signOut(page);
  await signInAs(page, customer);
  await page.getByRole('radio', { name: 'Recovery code' }).check();
  await page.getByRole('textbox', { name: 'Recovery code' }).fill(codes[0]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert')).toContainText('This recovery code is not correct or was already used.');
});

test('changing the password needs a fresh second factor: a code from the app, or the passkey', async ({ page, request, checkA11y }) => {
  test.setTimeout(120_000);
  const customer = await newCustomer(request, page, { firstName: 'Rowan', lastName: 'Factors', prefix: 'factors' });
  await signInAs(page, customer);
  await expect(page).toHaveURL(/\/account\/home$/);
  // The app set up through the API with this page's session (its page has its own journey above).
  const enrol = await page.request.post('/api/auth/totp/enrol', { headers: fromOurPages() });
  const { secret } = ((await enrol.json()) as { data: { secret: string } }).data;
  const confirmStep = totpStepAt(new Date());
  expect((await page.request.post('/api/auth/totp/confirm', { headers: fromOurPages(), data: { code: staffCode(confirmStep, secret) } })).status()).toBe(201);

  await page.goto('/account/update-password');
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
  const codeField = page.getByLabel('Code from your authenticator app');
  await expect(codeField).toBeVisible();
  await page.getByLabel('Current password', { exact: true }).fill(customer.password);
  await page.getByLabel('New password', { exact: true }).fill('Copper-Meadow-Lantern-41');
  await page.getByLabel('Confirm new password', { exact: true }).fill('Copper-Meadow-Lantern-41');
  // The code the set-up used is spent: refused, and nothing changes.
  await codeField.fill(staffCode(confirmStep, secret));
  await page.getByRole('button', { name: 'Update Password' }).click();
  await expect(page.getByRole('alert').first()).toContainText('That second factor was not accepted');
  await lookAtBothWidths(page, 'password-second-factor', checkA11y);
  // The next code, typed and sent from the keyboard.
  await codeField.fill(staffCode(confirmStep + 1, secret));
  await codeField.press('Enter');
  await expect(page.getByText('Password updated successfully')).toBeVisible();
  expect((await request.post('/api/auth/signin', { headers: fromOurPages(), data: { email: customer.email, password: customer.password } })).status()).toBe(
    401,
  );

  // A passkey instead: with the field left empty, the browser's passkey confirms the change.
  const { cdp, authenticatorId } = await virtualAuthenticator(page);
  await page.goto('/account/security');
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByText('Passkey added.').first()).toBeVisible();
  await page.goto('/account/update-password');
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
  await expect(page.getByText('Leave it empty to confirm with your passkey instead.')).toBeVisible();
  await page.getByLabel('Current password', { exact: true }).fill('Copper-Meadow-Lantern-41');
  await page.getByLabel('New password', { exact: true }).fill('Harbor-Quill-Juniper-58');
  await page.getByLabel('Confirm new password', { exact: true }).fill('Harbor-Quill-Juniper-58');
  const before = (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials[0]!.signCount;
  await page.getByRole('button', { name: 'Update Password' }).click();
  await expect(page.getByText('Password updated successfully')).toBeVisible();
  expect((await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials[0]!.signCount).toBeGreaterThan(before);
});
