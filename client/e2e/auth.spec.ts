import { expect, test } from '@playwright/test';
import { createVerifiedClient, loginAsClient, uniqueEmail, verificationLink } from './support/portal';

test.describe('registration, verification and sign-in', () => {
  test('registration checks its rules in the spec order', async ({ page }) => {
    await page.goto('/register');
    const submit = page.getByRole('button', { name: 'Create account' });
    await submit.click();
    await expect(page.getByText('This field is required')).toHaveCount(4);

    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Lovelace');
    await page.getByLabel('Email').fill('ada-at-example');
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('short');
    await page.getByRole('textbox', { name: 'Confirm password' }).fill('other');
    await submit.click();
    await expect(page.getByText('Please enter a valid email address')).toBeVisible();
    await expect(page.getByText('Password must be at least 8 characters')).toHaveCount(0);

    await page.getByLabel('Email').fill(uniqueEmail('ada'));
    await submit.click();
    await expect(page.getByText('Password must be at least 8 characters')).toBeVisible();
    await expect(page.getByText('Passwords do not match')).toHaveCount(0);

    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('long-enough-1');
    await submit.click();
    await expect(page.getByText('Passwords do not match')).toBeVisible();
  });

  test('registration refuses a common password with the reason, in English and in German', async ({ page }) => {
    await page.goto('/register');
    const fill = async () => {
      await page.getByRole('textbox', { name: /^(First name|Vorname)$/ }).fill('Ada');
      await page.getByRole('textbox', { name: /^(Last name|Nachname)$/ }).fill('Lovelace');
      await page.getByRole('textbox', { name: /^(Email|E-Mail)$/ }).fill(uniqueEmail('common'));
      for (const field of await page.locator('input[type="password"]').all()) await field.fill('password123');
    };
    await fill();
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText('This password is too common. Please choose one that is harder to guess.')).toBeVisible();

    await page.getByTestId('language-select').first().selectOption('de');
    await fill();
    await page.locator('button[type="submit"]').click();
    await expect(page.getByText('Dieses Passwort ist zu verbreitet. Bitte wählen Sie eines, das schwerer zu erraten ist.')).toBeVisible();
  });

  test('register → success panel → /login with the check-your-e-mail message → verify by the mailed link → log in', async ({ page }) => {
    const email = uniqueEmail('newcomer');
    await page.goto('/register');
    await page.getByLabel('First name').fill('Nia');
    await page.getByLabel('Last name').fill('Newcomer');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('newcomer-pass-1');
    await page.getByRole('textbox', { name: 'Confirm password' }).fill('newcomer-pass-1');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText('Registration successful!')).toBeVisible();
    await expect(page).toHaveURL(/\/login$/, { timeout: 5000 });
    await expect(page.getByText('Please check your e-mail for the verification link')).toBeVisible();

    // Before verification the login is refused with the spec message.
    await page.getByLabel('Email').fill(email);
    await page.getByRole('textbox', { name: 'Password' }).fill('newcomer-pass-1');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByText('Account not verified. Please check your email.')).toBeVisible();
    // One message at a time, and the notice belongs to the arrival: not repeated on a fresh visit.
    await expect(page.getByText('Please check your e-mail for the verification link')).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
    await expect(page.getByText('Please check your e-mail for the verification link')).toHaveCount(0);

    await page.goto(verificationLink(email));
    await expect(page.getByText('Your e-mail address is verified.')).toBeVisible();
    await page.getByRole('link', { name: 'Go to login' }).click();
    await expect(page.getByText('You can log in now.')).toBeVisible();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('textbox', { name: 'Password' }).fill('newcomer-pass-1');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByTestId('welcome')).toHaveText('Welcome, Nia');

    // The link works once.
    await page.goto(verificationLink(email));
    await expect(page.getByText('This verification link is invalid or has expired.')).toBeVisible();
  });

  test('an already registered e-mail gets the message with a Go to Login Page link', async ({ page }) => {
    const client = await createVerifiedClient(page);
    await page.goto('/register');
    await page.getByLabel('First name').fill('Dup');
    await page.getByLabel('Last name').fill('Licate');
    await page.getByLabel('Email').fill(client.email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('duplicate-1');
    await page.getByRole('textbox', { name: 'Confirm password' }).fill('duplicate-1');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(
      page.getByText('This email is already registered. Please try logging in instead or use a different email address.'),
    ).toBeVisible();
    await page.getByRole('link', { name: 'Go to Login Page' }).click();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('login says the same for an unknown account and a wrong password, so it tells no addresses apart', async ({ page }) => {
    const client = await createVerifiedClient(page);
    await page.goto('/login');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByText('Email and password are required')).toBeVisible();
    await page.getByLabel('Email').fill('nobody@portal.test');
    await page.getByRole('textbox', { name: 'Password' }).fill('whatever-1');
    await page.getByRole('button', { name: 'Log in' }).click();
    const failed = page.getByText('Invalid email or password. Please try again.');
    await expect(failed).toBeVisible();
    await page.getByLabel('Email').fill(client.email);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(failed).toBeVisible();
    await expect(page.getByText(/not found|inactive/i)).toHaveCount(0);
  });

  test('the admin login refuses a client', async ({ page }) => {
    const client = await createVerifiedClient(page);
    await page.goto('/secret-admin');
    await page.getByLabel('Email').fill(client.email);
    await page.getByRole('textbox', { name: 'Password' }).fill(client.password);
    await page.getByRole('button', { name: 'Log in as Admin' }).click();
    await expect(page.getByText('Invalid admin credentials or insufficient permissions')).toBeVisible();
    await expect(page).toHaveURL(/\/secret-admin$/);
    expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBeNull();
  });

  test('a session revoked on the server ends in the browser with the expiry message', async ({ page }) => {
    const client = await createVerifiedClient(page);
    // The dashboard's own calls answered first: one answered 401 after the logout would end the session (and clear
    // the stored one) before the reload this test is about. (Waiting for the network to go idle was not enough: on a
    // slow machine they started after it had.)
    const dashboardLoaded = Promise.all(
      ['/api/client/versions', '/api/licenses', '/api/devices'].map((path) =>
        page.waitForResponse((response) => new URL(response.url()).pathname === path),
      ),
    );
    await loginAsClient(page, client);
    await dashboardLoaded;
    const token = await page.evaluate(() => localStorage.getItem('auth_token'));
    expect((await page.request.post('/api/logout', { headers: { Authorization: `Bearer ${token}` } })).status()).toBe(200);
    await page.reload();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText('Authentication expired. Please log in again.')).toBeVisible();
  });
});
