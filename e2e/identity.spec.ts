import { ADMIN, expect, mailedCode, signInAs, test, uniqueEmail } from './support/fixtures';

test.describe('identity journeys', () => {
  test('sign up, read the code from the mailbox, verify, land on the dashboard', async ({ page, checkA11y }) => {
    const email = uniqueEmail('signup');
    await page.goto('/signup');
    await expect(page.getByRole('heading', { name: 'Create Your Account' })).toBeVisible();
    await expect(page).toHaveTitle('Create an Account');
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
    await signInAs(page, ADMIN, '/admin/login');
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
  });

  test('signed-out visits to the account area go to /signin', async ({ page }) => {
    await page.goto('/account/home');
    await expect(page).toHaveURL(/\/signin$/);
  });
});
