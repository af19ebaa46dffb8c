import type { APIRequestContext, Browser, Locator, Page } from '@playwright/test';
import sharp from 'sharp';
import {
  ADMIN,
  approveAsSecondStaff,
  CUSTOMER_PASSWORD,
  DEMO_CUSTOMER_2,
  expect,
  fromOurPages,
  lookAtBothWidths,
  mailedCode,
  signInAs,
  newCustomer,
  test,
  uniqueEmail,
} from './support/fixtures';

const WHITE = 'rgb(255, 255, 255)';

// Customer services journeys (issue 5): KYC to staff approval, a loan to its disbursed balance,
// profile edit, crypto deposit copy, and the other customer-service pages, with axe on each.

async function jpeg(color: { r: number; g: number; b: number }): Promise<Buffer> {
  return sharp({ create: { width: 320, height: 200, channels: 3, background: color } })
    .jpeg()
    .toBuffer();
}

async function adminPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInAs(page, ADMIN, '/admin/login');
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  return page;
}

async function submitKycByApi(request: APIRequestContext): Promise<void> {
  const image = await jpeg({ r: 30, g: 90, b: 160 });
  const response = await request.post('/api/user/verification', {
    headers: fromOurPages(),
    multipart: {
      passportImageFile: { name: 'passport.jpg', mimeType: 'image/jpeg', buffer: image },
      documentType: 'passport',
      documentFile: { name: 'document.jpg', mimeType: 'image/jpeg', buffer: image },
      proofOfAddressFile: { name: 'bill.jpg', mimeType: 'image/jpeg', buffer: image },
      dateOfBirth: '1989-06-01',
    },
  });
  expect(response.status(), await response.text()).toBe(201);
}

test.describe('customer services', () => {
  test('KYC: the customer submits documents, staff approve, the customer is verified', async ({ page, browser, checkA11y }) => {
    const customer = await newCustomer(page.request, page, { firstName: 'Kira', lastName: 'Tester' });
    await page.goto('/account/kyc-verification');
    await expect(page.getByRole('heading', { name: 'Complete Your Account Setup' })).toBeVisible();
    await checkA11y();

    await page.getByRole('button', { name: 'Submit KYC' }).click();
    const required = page.getByRole('alert').filter({ hasText: 'All fields are required.' });
    await expect(required).toBeVisible();
    await expect(required).toHaveClass(/border-rose-500/);

    await page.getByLabel('Passport image').setInputFiles({ name: 'passport.jpg', mimeType: 'image/jpeg', buffer: await jpeg({ r: 200, g: 40, b: 40 }) });
    const preview = page.getByRole('img', { name: 'Preview of the passport image' });
    await expect(preview).toBeVisible();
    expect(await preview.evaluate((element) => getComputedStyle(element).maxHeight)).toBe('192px');
    await page.getByLabel('Document type').selectOption('national_id');
    await page.getByLabel('Document file').setInputFiles({ name: 'id.jpg', mimeType: 'image/jpeg', buffer: await jpeg({ r: 40, g: 160, b: 40 }) });
    await page.getByLabel('Proof of address').setInputFiles({ name: 'bill.jpg', mimeType: 'image/jpeg', buffer: await jpeg({ r: 40, g: 40, b: 160 }) });
    await page.getByLabel('Date of birth').fill('1989-06-01');
    await checkA11y();
    await page.getByRole('button', { name: 'Submit KYC' }).click();
    await expect(page).toHaveURL(/\/account\/home$/);
    await page.goto('/account/info');
    await expect(page.getByText('Under review')).toBeVisible();
    await checkA11y();

    const admin = await adminPage(browser);
    await admin.goto('/admin/kyc');
    await expect(admin.getByRole('heading', { name: 'Identity reviews' })).toBeVisible();
    const row = admin.getByTestId('kyc-row').filter({ hasText: customer.email });
    await row.getByRole('button', { name: /Review/ }).click();
    // The review opens right under its row (one at a time).
    const documents = admin.getByRole('region', { name: 'Verification documents' });
    await expect(documents.getByRole('img', { name: 'Passport image' })).toBeVisible();
    await checkA11y(admin);
    // The list with the review open under its row, as a phone and a laptop show it.
    await lookAtBothWidths(admin, 'admin-kyc-review', checkA11y);
    await documents.getByRole('button', { name: 'Approve' }).click();
    await expect(admin.getByText('Verification approved. The customer has been emailed.')).toBeVisible();
    await admin.context().close();

    await page.reload();
    await expect(page.getByText('Verified', { exact: true })).toBeVisible();
    await page.goto('/account/kyc-verification');
    await expect(page.getByText('Your identity is verified.')).toBeVisible();
  });

  test('a loan application is approved by staff and the money lands in checking', async ({ page, browser, checkA11y }) => {
    await newCustomer(page.request, page, { firstName: 'Lena', lastName: 'Tester' });
    await submitKycByApi(page.request);
    const admin = await adminPage(browser);
    await admin.goto('/admin/kyc');
    await admin
      .getByTestId('kyc-row')
      .filter({ hasText: 'Lena Tester' })
      .first()
      .getByRole('button', { name: /Review/ })
      .click();
    await admin.getByRole('region', { name: 'Verification documents' }).getByRole('button', { name: 'Approve' }).click();
    await expect(admin.getByText('Verification approved. The customer has been emailed.')).toBeVisible();

    await page.goto('/account/loans');
    await checkA11y();
    await page.getByRole('link', { name: 'Apply for a loan' }).click();
    await expect(page).toHaveURL(/\/account\/loans\/apply$/);
    await page.getByLabel('Loan type').selectOption('personal');
    await page.getByLabel('Loan amount (USD)').fill('12000');
    await page.getByLabel('Loan duration (months)').fill('24');
    // $12,000 at 9.99% over 24 months: 553.6837... a month by the amortization formula, rounded up to the cent.
    await expect(page.getByText('$553.69', { exact: true })).toBeVisible();
    await page.getByLabel('Loan purpose').fill('Consolidate two card balances');
    await checkA11y();
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByText('Loan application submitted successfully, check your email for updates.')).toBeVisible();

    await page.goto('/account/loans');
    await expect(page.getByRole('heading', { name: 'Processing Loans' })).toBeVisible();
    await expect(page.getByText('Processing', { exact: true })).toBeVisible();

    await admin.goto('/admin/loans');
    await expect(admin.getByTestId('loan-row').filter({ hasText: 'Lena Tester' }).first()).toBeVisible();
    // Staff read the queue's own words on the row: the tab it is under says the same.
    await expect(admin.getByTestId('loan-row').filter({ hasText: 'Lena Tester' }).first().getByText('Waiting for a decision', { exact: true })).toBeVisible();
    await expect(admin.getByRole('button', { name: /^Waiting for a decision/ })).toHaveAttribute('aria-pressed', 'true');
    await lookAtBothWidths(admin, 'admin-loans', checkA11y);
    await admin.getByRole('button', { name: "Approve and disburse Lena Tester's loan" }).click();
    const approval = admin.getByRole('alertdialog', { name: /^Approve Lena Tester's loan of \$12,000\.00\? It is paid into their checking account/ });
    await approval.getByRole('button', { name: 'Approve and disburse', exact: true }).click();
    // $12,000 is above FOUR_EYES_LOAN_ABOVE ($10,000): a second staff member approves the payout (ADR 023).
    await expect(admin.getByText('Loan approval requested - awaiting approval by a second staff member')).toBeVisible();
    await admin.context().close();
    const paid = await approveAsSecondStaff((item) => item.kind === 'loan_approval' && item.payload.amount === 12000 && item.customer?.name === 'Lena Tester');
    expect(paid.message).toBe("Loan approved: $12,000.00 paid into the customer's checking account.");

    await page.goto('/account/home');
    await expect(page.getByTestId('checking-balance')).toHaveText('$12,000.00');
    await page.goto('/account/loans');
    await expect(page.getByText('Approved', { exact: true })).toBeVisible();
    await page.getByText(/Repayment schedule \(24 payments\)/).click();
    const schedule = page.getByRole('table', { name: 'Repayment schedule' });
    await expect(schedule).toBeVisible();
    await expect(page.getByTestId('loan-progress')).toHaveText('0 of 24 installments paid · $12,000.00 of principal outstanding.');
    await checkA11y();

    // The customer pays the first installment from checking.
    const firstPayment = (await schedule.getByRole('row').nth(1).getByRole('cell').nth(3).textContent()) ?? '';
    // The status stands at the card's top right, beside the loan's heading, as on every card.
    await page.setViewportSize({ width: 1280, height: 900 });
    const status = page.getByRole('listitem').filter({ hasText: 'Personal loan: $12,000.00' }).getByText('Approved', { exact: true });
    /** The status's top in its card, and whether it stands above the question (when one is open). */
    const statusPlace = () =>
      status.evaluate((badge) => {
        const card = badge.closest('li')!;
        const top = Math.round(badge.getBoundingClientRect().top - card.getBoundingClientRect().top);
        const question = card.querySelector('[role="alertdialog"]');
        return { top, aboveQuestion: !question || badge.getBoundingClientRect().bottom <= question.getBoundingClientRect().top };
      });
    const closedStatus = await statusPlace();
    await page.getByRole('button', { name: `Pay installment 1: ${firstPayment} of the personal loan` }).click();
    const payment = page.getByRole('alertdialog', { name: `Pay installment 1 of ${firstPayment} from your checking account now?` });
    await expect(payment.getByRole('button', { name: `Pay ${firstPayment}` })).toBeFocused();
    await lookAtBothWidths(page, 'confirm-pay-installment', checkA11y);
    // The question, too wide to stand beside the loan, goes under it; the status stays up where it
    // was (in a group with the question it followed it down and stood left of it, mid-card).
    expect(await statusPlace(), 'the Approved status with the pay question open at 1280 px').toEqual(closedStatus);
    // At 1280 px the question stands at the card's right edge, where its button was, with its words
    // on one line: at a fixed 24rem it wrapped them into a narrow box with most of the card empty.
    const fit = await payment.evaluate((panel) => {
      const question = panel.querySelector('p');
      const card = panel.closest('li');
      if (!question || !card) return null;
      const style = getComputedStyle(card);
      return {
        questionLines: Math.round(question.getBoundingClientRect().height / parseFloat(getComputedStyle(question).lineHeight)),
        rightOfPanel: Math.round(
          card.getBoundingClientRect().right - parseFloat(style.borderRightWidth) - parseFloat(style.paddingRight) - panel.getBoundingClientRect().right,
        ),
      };
    });
    expect(fit, 'the pay question in its loan card at 1280 px').toEqual({ questionLines: 1, rightOfPanel: 0 });
    await payment.getByRole('button', { name: `Pay ${firstPayment}` }).click();
    await expect(page.getByText('Installment 1 of 24 paid.')).toBeVisible();
    await expect(page.getByTestId('loan-progress')).toContainText('1 of 24 installments paid');
    await expect(schedule.getByRole('row').nth(1)).toContainText('Paid');
    await expect(page.getByRole('button', { name: /^Pay installment 2:/ })).toBeVisible();
    await page.goto('/account/transactions');
    await expect(page.getByTestId('transaction-line').first()).toContainText('Personal loan installment 1 of 24');
    await expect(page.getByTestId('transaction-line').first()).toContainText(`−${firstPayment}`);
    await page.goto('/account/loans/documents');
    await expect(page.getByRole('heading', { name: /Personal loan: \$12,000\.00/ })).toBeVisible();
    await checkA11y();
  });

  test('profile edit: phone, state and picture, and an email change confirmed by code', async ({ page, checkA11y }) => {
    const customer = await newCustomer(page.request, page, { firstName: 'Pavel', lastName: 'Tester' });
    await page.goto('/account/settings');
    await checkA11y();
    await page.getByRole('link', { name: /Edit Profile/ }).click();
    await expect(page.getByRole('heading', { name: 'Edit Profile' })).toBeVisible();
    await expect(page.getByLabel('First name')).toHaveAttribute('readonly', '');
    // Only what cannot be edited looks it: the read-only name is grey, the picture's file field white.
    const background = (field: Locator) => field.evaluate((element) => getComputedStyle(element).backgroundColor);
    expect(await background(page.getByLabel('First name'))).not.toBe(WHITE);
    expect(await background(page.getByLabel('Profile picture'))).toBe(WHITE);
    await checkA11y();

    await page.getByLabel('State').fill('Nevada');
    await page.getByLabel('Phone number').fill('12');
    await page.getByRole('button', { name: 'Update Profile' }).click();
    await expect(page.getByRole('alert')).toContainText('valid phone number');
    await page.getByLabel('Phone number').fill('+1 415 555 0199');
    await page.getByRole('button', { name: 'Update Profile' }).click();
    const saved = page.getByRole('status').filter({ hasText: 'Profile updated successfully' });
    await expect(saved).toBeVisible();
    await expect(saved).toHaveClass(/bg-green-50/);

    await page.getByLabel('Profile picture').setInputFiles({ name: 'me.jpg', mimeType: 'image/jpeg', buffer: await jpeg({ r: 120, g: 60, b: 200 }) });
    await expect(page.getByRole('link', { name: 'Account information' }).locator('img')).toBeVisible();

    const newEmail = uniqueEmail('pavel.new');
    await page.getByLabel('Email').fill(newEmail);
    await page.getByLabel('Current password', { exact: true }).fill(CUSTOMER_PASSWORD);
    await page.getByRole('button', { name: 'Update Profile' }).click();
    await expect(page.getByRole('status').filter({ hasText: `We sent a 6-digit code to ${newEmail}` })).toBeVisible();
    await page.getByLabel('Code sent to your new email').fill(await mailedCode(page, newEmail));
    await page.getByRole('button', { name: 'Confirm new email' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Your email address has been changed.' })).toBeVisible();

    await page.goto('/account/profile');
    await expect(page.getByText(newEmail).first()).toBeVisible();
    await expect(page.getByText('+1 415 555 0199')).toBeVisible();
    await expect(page.getByText(customer.email)).toHaveCount(0);
    await checkA11y();

    await page.goto('/account/update-password');
    await page.getByLabel('Current password', { exact: true }).fill(CUSTOMER_PASSWORD);
    await page.getByLabel('New password', { exact: true }).fill('Another-Harbor-8820');
    await page.getByLabel('Confirm new password', { exact: true }).fill('Different-Harbor-8820');
    await page.getByRole('button', { name: 'Update Password' }).click();
    await expect(page.getByRole('alert')).toHaveText('Passwords do not match');
    await checkA11y();
  });

  test('deposit: unavailable methods say so; crypto shows the address, copies it and draws its QR code', async ({ page, context, checkA11y }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    // Read-only journey: a demo customer, so the suite signs up fewer customers (sign-up is rate limited).
    await signInAs(page, DEMO_CUSTOMER_2);
    await expect(page).toHaveURL(/\/account\/home$/);
    await page.goto('/account/deposit');
    await expect(page.getByRole('heading', { name: 'Choose Deposit Method' })).toBeVisible();
    await checkA11y();
    await page.getByRole('button', { name: 'PayPal' }).click();
    await expect(page.getByText('PayPal deposit is not available at the moment.')).toBeVisible();
    await page.getByRole('button', { name: 'Bank Transfer' }).click();
    await expect(page.getByText('Bank Transfer deposit is not available at the moment.')).toBeVisible();
    await page.getByRole('link', { name: 'Crypto Deposit' }).click();
    await expect(page).toHaveURL(/\/account\/deposit\/crypto$/);

    await expect(page.getByRole('button', { name: /Bitcoin/ })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByText('Bitcoin Network', { exact: true })).toBeVisible();
    const address = (await page.getByTestId('deposit-address').textContent())?.trim() ?? '';
    expect(address).toMatch(/^bc1/);
    await expect(page.getByRole('img', { name: 'QR code of the BTC deposit address' })).toBeVisible();
    await expect(page.locator('[data-sonner-toast]')).toHaveCount(0);
    await checkA11y();

    await page.getByRole('button', { name: 'Copy the BTC address' }).click();
    await expect(page.getByRole('button', { name: 'Copied!' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(address);
    await expect(page.getByRole('button', { name: 'Copy the BTC address' })).toBeVisible({ timeout: 3000 });

    await page.getByRole('button', { name: /USDT TRC20/ }).click();
    await expect(page.getByText('Tron (TRC20)', { exact: true })).toBeVisible();
    await expect(page.getByText('Send only USDT TRC20 to this address.', { exact: false })).toBeVisible();
    await expect(page.getByTestId('deposit-address')).toHaveText(/^T/);
  });

  test('cards, beneficiaries, support: each page works and passes axe; staff see the card request', async ({ page, browser, checkA11y }) => {
    const customer = await newCustomer(page.request, page, { firstName: 'Cora', lastName: 'Tester' });
    await page.goto('/account/cards');
    await checkA11y();
    await page.getByRole('button', { name: 'Request Card' }).click();
    await expect(page.getByText('Card request sent we will get back to you')).toBeVisible();
    await expect(page.getByText('Pending review')).toBeVisible();
    // The request reads as the picker named it, and the card's number stays on one line.
    await expect(page.getByRole('region', { name: 'Your card requests' }).getByText('Debit card', { exact: true })).toBeVisible();
    const digits = page.getByText('•••• •••• •••• ••••');
    expect(await digits.evaluate((span) => span.getBoundingClientRect().height < 1.5 * parseFloat(getComputedStyle(span).lineHeight))).toBe(true);

    await page.goto('/account/beneficiaries');
    await expect(page.getByText('You have no beneficiaries yet.')).toBeVisible();
    await checkA11y();
    await page.getByText('Add a beneficiary').click();
    await page.getByLabel('Name', { exact: true }).fill('Chris Park');
    await page.getByLabel('Account number').fill('123456789');
    await page.getByLabel('Routing number').fill('021000021');
    await page.getByLabel('Bank name').fill('Chase');
    await page.getByRole('button', { name: 'Save beneficiary' }).click();
    const use = page.getByRole('link', { name: 'Use Chris Park for a transfer' });
    await expect(use).toHaveAttribute('href', '/account/transfer?accountNumber=123456789&routingNumber=021000021&bankName=Chase&to=Chris+Park');
    await page.getByRole('button', { name: 'Remove Chris Park' }).click();
    await page.getByRole('alertdialog', { name: 'Remove Chris Park from your beneficiaries?' }).getByRole('button', { name: 'Remove', exact: true }).click();
    await expect(page.getByText('You have no beneficiaries yet.')).toBeVisible();

    await page.goto('/account/support');
    await expect(page.getByText('24/7 live chat')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go to the contact page' })).toHaveAttribute('href', '/contact');
    await checkA11y();
    await page.goto('/account-verification');
    await checkA11y();

    const admin = await adminPage(browser);
    await admin.goto('/admin/cards');
    await expect(admin.getByRole('cell', { name: new RegExp(customer.email) })).toBeVisible();
    await checkA11y(admin);
    await admin.getByRole('button', { name: "Approve Cora Tester's debit card request" }).click();
    await expect(admin.getByText('Card request approved')).toBeVisible();
    await admin.context().close();
    await page.goto('/account/cards');
    await expect(page.getByText('Approved', { exact: true })).toBeVisible();
  });
});
