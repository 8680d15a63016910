import { expect, test } from '@playwright/test';
import { createVerifiedClient, loginAsClient } from './support/portal';

test('switching to German applies everywhere and survives a reload', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('language-select').first().selectOption('de');
  await expect(page.getByRole('link', { name: 'Kostenlos testen' }).first()).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Alles, was eine Streaming-Plattform braucht' })).toBeVisible();
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Kunden-Anmeldung' })).toBeVisible();
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'Seite nicht gefunden' })).toBeVisible();
  await page.goto('/secret-admin');
  await page.getByLabel('E-Mail').fill('admin@portal.test');
  await page.getByRole('textbox', { name: 'Passwort' }).fill('admin-password-1');
  await page.getByRole('button', { name: 'Als Admin anmelden' }).click();
  await expect(page).toHaveURL(/\/secret-admin\/dashboard$/);
  await page.goto('/secret-admin/users');
  await expect(page.getByRole('heading', { name: 'Benutzerverwaltung' })).toBeVisible();
  await expect(page.getByText(/Zeilen pro Seite/)).toBeVisible();
  // The test portal runs on the sandbox payment provider, and the admin shell says so.
  await expect(page.getByTestId('sandbox-payments')).toHaveText('Sandbox-Zahlungen');
  // Dates follow the locale too (e.g. "22.11.2026").
  await expect(page.getByTestId('users-table').locator('tbody tr').first()).toContainText(/\d{1,2}\.\d{1,2}\.\d{4}|\d{1,2}\. \w+/);

  await page.getByTestId('language-select').selectOption('en');
  await expect(page.getByRole('heading', { name: 'Users Management' })).toBeVisible();
  await expect(page.getByTestId('sandbox-payments')).toHaveText('Sandbox payments');
});

test("the Get License tiles show the settings' German texts to a German reader, the English ones otherwise", async ({ page }) => {
  const settings = (await (await page.request.get('/api/settings')).json()).data;
  for (const group of [settings.test_license, settings.pricing]) expect(group.description_de).not.toBe(group.description);
  await loginAsClient(page, await createVerifiedClient(page));
  await expect(page.getByTestId('test-license-tile')).toContainText(settings.test_license.description);
  await expect(page.getByTestId('purchase-tile')).toContainText(settings.pricing.description);
  await page.getByTestId('language-select').first().selectOption('de');
  await expect(page.getByTestId('test-license-tile')).toContainText(settings.test_license.description_de);
  await expect(page.getByTestId('purchase-tile')).toContainText(settings.pricing.description_de);
  await expect(page.getByTestId('test-license-tile')).not.toContainText(settings.test_license.description);
});
