import { expect, test } from '@playwright/test';
import { createVerifiedClient, fitsViewport, loginAsAdmin, mailedLink, mailsTo, seriousAxeViolations } from './support/portal';

test.describe('forgotten password', () => {
  test('login → Forgot password? → mailed link → new password → signed in with it; the link works once', async ({ page }) => {
    const client = await createVerifiedClient(page);
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
    expect(await seriousAxeViolations(page)).toEqual([]);

    const before = mailsTo(client.email).length;
    await page.getByLabel('Email').fill(client.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByRole('status')).toHaveText(/If an account exists for this address, we have sent it a link/);
    const link = await mailedLink(client.email, 'reset-password', before);

    await page.goto(link);
    await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
    expect(await seriousAxeViolations(page)).toEqual([]);
    const password = page.getByRole('textbox', { name: 'New password', exact: true });
    const confirmation = page.getByRole('textbox', { name: 'Confirm new password' });
    const submit = page.getByRole('button', { name: 'Set new password' });
    await password.fill('short');
    await submit.click();
    await expect(page.getByText('Password must be at least 8 characters')).toBeVisible();
    await password.fill('new-secret-after-reset');
    await confirmation.fill('new-secret-after-rest');
    await submit.click();
    await expect(page.getByText('Passwords do not match')).toBeVisible();
    // The server's own rule: common passwords are refused under the field.
    await password.fill('password123');
    await confirmation.fill('password123');
    await submit.click();
    await expect(page.getByText('This password is too common. Please choose one that is harder to guess.')).toBeVisible();

    await password.fill('new-secret-after-reset');
    await confirmation.fill('new-secret-after-reset');
    await submit.click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('status')).toHaveText('Your password has been changed. Please log in with your new password.');
    await expect(page.getByLabel('Email')).toHaveValue(client.email);
    await page.getByRole('textbox', { name: 'Password' }).fill('new-secret-after-reset');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);

    // A second use of the same link is refused, with a way to ask for a new one.
    await page.goto(link);
    await page.getByRole('textbox', { name: 'New password', exact: true }).fill('another-new-secret');
    await page.getByRole('textbox', { name: 'Confirm new password' }).fill('another-new-secret');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.getByRole('alert')).toHaveText('This password reset link is invalid or has expired.');
    await page.getByRole('link', { name: 'Request a new link' }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
  });

  test('the admin sign-in offers it too, in German and on a phone; a page without a token says the link is dead', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/secret-admin');
    await page.getByTestId('language-select').first().selectOption('de');
    await page.getByRole('link', { name: 'Passwort vergessen?' }).click();
    await expect(page.getByRole('heading', { name: 'Passwort vergessen?' })).toBeVisible();
    await expect.poll(() => fitsViewport(page)).toBe(true);
    await page.getByRole('button', { name: 'Link zum Zurücksetzen senden' }).click();
    await expect(page.getByText('Dieses Feld ist erforderlich')).toBeVisible();
    await page.getByLabel('E-Mail').fill('niemand@portal.test');
    await page.getByRole('button', { name: 'Link zum Zurücksetzen senden' }).click();
    await expect(page.getByRole('status')).toHaveText(/Falls für diese Adresse ein Konto existiert/);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'Zurück zur Anmeldung' }).click();
    await expect(page).toHaveURL(/\/secret-admin$/);

    await page.goto('/reset-password');
    await expect(page.getByRole('alert')).toHaveText('Dieser Link zum Zurücksetzen des Passworts ist ungültig oder abgelaufen.');
    await expect.poll(() => fitsViewport(page)).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  test("the admin sees a pending reset's expiry in the user's Account Information, never the token", async ({ page }) => {
    const client = await createVerifiedClient(page);
    const response = await page.request.post('/api/password/forgot', { data: { email: client.email } });
    expect(response.status()).toBe(200);
    const link = await mailedLink(client.email, 'reset-password');
    const token = new URL(link).searchParams.get('token')!;

    await loginAsAdmin(page);
    await page.goto('/secret-admin/users');
    await page.getByPlaceholder('Search by name or email...').fill(client.email);
    await expect(page.getByTestId('users-table').locator('tbody tr')).toHaveCount(1);
    await page.getByRole('button', { name: `Edit ${client.email}` }).click();
    const row = page.getByTestId('pending-reset');
    await expect(row).toContainText('Password reset link');
    await expect(row).toContainText(/expires \S+/);
    await expect(page.getByTestId('account-info')).not.toContainText(token.slice(0, 8));
  });
});
