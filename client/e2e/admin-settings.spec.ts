import { expect, test } from '@playwright/test';
import { adminToken, loginAsAdmin, SCREENS, showAs } from './support/portal';

// Runs on the shared browser-test database: after it a new key signs, and the previous one is gone.
test('an admin rotates the signing key in Settings, then removes the previous one', async ({ page }) => {
  await loginAsAdmin(page);
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\/secret-admin\/settings$/);
  const section = page.getByTestId('signing-keys');
  const rows = section.locator('tbody tr');
  await expect(rows.first()).toContainText('Signs now');
  const before = await rows.count();
  const oldKid = (await rows.first().locator('code').first().textContent())?.trim() ?? '';
  expect(oldKid).toMatch(/^[0-9a-f]{16}$/);

  await section.getByRole('button', { name: 'Rotate key' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Rotate key' }).click();
  await expect(page.getByText(/signs from now on\./)).toBeVisible();
  await expect(rows).toHaveCount(before + 1);
  await expect(rows.first()).toContainText('Signs now');
  await expect(rows.first()).not.toContainText(oldKid);
  const oldRow = rows.filter({ hasText: oldKid });
  await expect(oldRow).toContainText('Verifies only');

  await oldRow.getByRole('button', { name: `Remove key ${oldKid}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove key' }).click();
  await expect(page.getByText(`Key ${oldKid} was removed.`)).toBeVisible();
  await expect(rows.filter({ hasText: oldKid })).toHaveCount(0);

  for (const [width, locale] of SCREENS) {
    await showAs(page, width, locale);
    await expect(section.locator('tbody tr').first()).toBeVisible();
    await page.screenshot({ path: `e2e/screenshots/admin-settings-${locale}-${width}.png`, fullPage: true });
  }
});

test('an admin makes every download need a license, and opens stable builds again', async ({ page }) => {
  const token = await adminToken(page);
  const headers = { Authorization: `Bearer ${token}` };
  const rule = async () =>
    (await (await page.request.get('/api/admin/settings', { headers })).json()).data.features.downloads_require_license;
  await loginAsAdmin(page);
  await page.getByRole('link', { name: 'Settings' }).click();
  const section = page.getByTestId('download-rules');
  const toggle = section.getByRole('switch', { name: 'Every download needs a license' });
  await expect(toggle).not.toBeChecked();
  try {
    await toggle.click({ force: true });
    await expect(section.getByText('Every download now needs a license covering the release.')).toBeVisible();
    expect(await rule()).toBe(true);
    await page.reload();
    await expect(toggle).toBeChecked();
    await page.screenshot({ path: 'e2e/screenshots/admin-settings-downloads-en-1280.png', fullPage: true });
    await toggle.click({ force: true });
    await expect(section.getByText('Published stable builds are open to every verified customer again.')).toBeVisible();
    expect(await rule()).toBe(false);

    // The oldest supported release: the server refuses what is not a version, and keeps a version.
    const minimum = section.getByRole('textbox', { name: 'Oldest supported release' });
    await minimum.fill('four');
    await section.getByRole('button', { name: 'Save' }).click();
    await expect(
      section.getByText('The download rule was not saved: min_supported_version must be a semantic version such as 2.1.0, or empty'),
    ).toBeVisible();
    await minimum.fill('4.2.0');
    await section.getByRole('button', { name: 'Save' }).click();
    await expect(section.getByText('Servers below 4.2.0 are now told an update is required.')).toBeVisible();
    await page.reload();
    await expect(minimum).toHaveValue('4.2.0');
    for (const [width, locale] of SCREENS.slice(1)) {
      await showAs(page, width, locale);
      await expect(section).toBeVisible();
      await page.screenshot({ path: `e2e/screenshots/admin-settings-downloads-${locale}-${width}.png`, fullPage: true });
    }
  } finally {
    const cleared = await page.request.patch('/api/admin/settings', {
      headers,
      data: { key: 'app_info.min_supported_version', value: '' },
    });
    expect(cleared.status()).toBe(200);
    // The browser tests share one database: the other specs' customers download without a license.
    const reset = await page.request.patch('/api/admin/settings', {
      headers,
      data: { key: 'features.downloads_require_license', value: false },
    });
    expect(reset.status()).toBe(200);
  }
});
