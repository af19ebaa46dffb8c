import { ADMIN, expect, lookAtBothWidths, mailedCode, mailedText, signInAs, test, uniqueEmail, waitForHydration } from './support/fixtures';

test.describe('identity journeys', () => {
  test('sign up, read the code from the mailbox, verify, land on the dashboard', async ({ page, checkA11y }) => {
    const email = uniqueEmail('signup');
    await page.goto('/signup');
    await waitForHydration(page);
    await expect(page.getByRole('heading', { name: 'Create Your Account' })).toBeVisible();
    await expect(page).toHaveTitle('Create an Account - Ledgerline Bank');
    await checkA11y();
    await page.getByLabel('First name').fill('Robin');
    await page.getByLabel('Last name').fill('Okafor');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Date of birth').fill('1991-03-04');
    await page.getByLabel('Address').fill('5 Elm Road, Leeds');
    await page.getByLabel('Sex').selectOption('Other');
    await page.getByLabel('Country').selectOption({ label: 'United Kingdom (+44)' });
    await expect(page.getByLabel('SSN/TIN')).toBeVisible();
    await page.getByLabel('SSN/TIN').fill('AB123456C');
    await page.getByLabel('Phone').fill('+44 20 7946 0958');
    await page.getByLabel('Employment type').selectOption('private');
    await page.getByLabel('Salary range').selectOption('$30,000.00 - $70,000.00');
    await page.getByLabel('Account type').selectOption('Checking');
    await page.getByLabel('Password', { exact: true }).fill('Maple-Lantern-73');
    // One submit names every problem: the passwords that differ and the unticked terms together,
    // not one after the other. (Focus goes to the first of them, the field typed into next.)
    await page.getByLabel('Confirm password').fill('Maple-Lantern-74');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Passwords do not match' })).toBeVisible();
    await expect(page.getByText('You must agree to the Privacy Policy and Terms & Conditions to continue.')).toBeVisible();
    await checkA11y();
    await page.getByLabel('Confirm password').fill('Maple-Lantern-73');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByRole('alert')).toHaveText('You must agree to the Privacy Policy and Terms & Conditions to continue.');
    await page.getByRole('checkbox', { name: /I agree/ }).check();
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page).toHaveURL(/\/signin$/);

    await signInAs(page, { email, password: 'Maple-Lantern-73' });
    await expect(page).toHaveURL(/\/email-verification$/);
    await checkA11y();
    await page.getByLabel('Verification code').fill('12345');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('alert')).toHaveText('OTP must be 6 characters long');
    await page.getByLabel('Verification code').fill(await mailedCode(page, email));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL(/\/account\/home$/);
    await expect(page.getByText('Robin', { exact: false }).first()).toBeVisible();
    await checkA11y();
  });

  test('a failed sign-in shows the server message and clears it after 3 s', async ({ page, checkA11y }) => {
    await page.goto('/signin');
    await waitForHydration(page);
    await expect(page.getByRole('heading', { name: 'Login to Your Account' })).toBeVisible();
    await checkA11y();
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByRole('alert')).toHaveText('Please fill in all fields');
    await page.getByLabel('Email').fill('nobody@example.com');
    await page.getByLabel('Password', { exact: true }).fill('wrong-password-1');
    await page.getByRole('button', { name: 'Show password' }).click();
    await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('type', 'text');
    await page.getByRole('button', { name: 'Login' }).click();
    const alert = page.getByRole('alert');
    await expect(alert).toHaveText('Invalid email or password');
    await page.waitForTimeout(3200);
    await expect(alert).toHaveCount(0);
  });

  test('an admin signs in at /admin/login and lands on /admin/dashboard', async ({ page, checkA11y }) => {
    await page.goto('/admin/login');
    await checkA11y();
    // The form itself, with the second step (not the worker's staff session: see signInAs).
    await signInAs(page, ADMIN, '/admin/login', { form: true });
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await checkA11y();
  });

  test('/login and /register lead to the same pages, unknown paths show Not Found', async ({ page, checkA11y }) => {
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'Login to Your Account' })).toBeVisible();
    await page.goto('/register');
    await expect(page.getByRole('heading', { name: 'Create Your Account' })).toBeVisible();
    await page.goto('/no-such-page');
    await expect(page.getByRole('heading', { name: 'Not Found' })).toBeVisible();
    await checkA11y();
    // Under the signed-in areas too: the server answers 404 and the page says so.
    const response = await page.goto('/account/no-such-page');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Not Found' })).toBeVisible();
  });

  test('forgot password: the emailed link sets a new password that then signs in', async ({ page, checkA11y }) => {
    const email = uniqueEmail('reset');
    const signUp = await page.request.post('/api/auth/signup', {
      data: {
        firstName: 'Sam',
        lastName: 'Reset',
        email,
        address: '1 Road',
        dateOfBirth: '1980-01-01',
        sex: 'Male',
        countryCode: '1',
        phone: '+1 202 555 0199',
        occupation: 'public',
        annualIncomeRange: '$700.00 - $1,000.00',
        accountType: 'Savings',
        password: 'First-Harbor-11',
        confirmPassword: 'First-Harbor-11',
      },
    });
    expect(signUp.status()).toBe(201);
    await page.goto('/signin');
    await waitForHydration(page);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
    await checkA11y();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByRole('status')).toContainText('If an account exists for this email');
    const link = (await mailedText(page, email, /token=/)).match(/https?:\/\/\S+/)?.[0];
    expect(link).toBeTruthy();
    await page.goto(new URL(link!).pathname + new URL(link!).search);
    await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
    await checkA11y();
    await page.getByLabel('New password', { exact: true }).fill('Second-Harbor-22');
    await page.getByLabel('Confirm new password', { exact: true }).fill('Second-Harbor-22');
    // The new-password fields as filled in, with the strength meter, on a phone and a laptop.
    await expect(page.getByTestId('password-strength')).toContainText('Password strength:');
    await lookAtBothWidths(page, 'choose-new-password', checkA11y);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page).toHaveURL(/\/signin$/);
    await signInAs(page, { email, password: 'Second-Harbor-22' });
    await expect(page).toHaveURL(/\/email-verification$/);
  });

  test('signed-out visits to the account area go to /signin', async ({ page }) => {
    await page.goto('/account/home');
    await expect(page).toHaveURL(/\/signin$/);
  });
});
