import { expect, Page, test } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { ADMIN, loginAsAdmin, seriousAxeViolations } from './support/portal';

/** Users made for one test carry a unique marker in their last name, so searches stay within them. */
async function seedUsers(page: Page, marker: string, count: number) {
  const login = await page.request.post('/api/admin/login', { data: ADMIN });
  const token = (await login.json()).data.token as string;
  for (let i = 1; i <= count; i++) {
    const response = await page.request.post('/api/admin/users', {
      headers: { Authorization: `Bearer ${token}` },
      data: {
        first_name: `${String.fromCharCode(64 + i)}lex`,
        last_name: marker,
        email: `${marker.toLowerCase()}-${i}@portal.test`,
        password: 'secret-1x',
        is_verified: i % 2 === 0,
        is_active: i !== 3,
      },
    });
    expect(response.status()).toBe(201);
  }
}

const rows = (page: Page) => page.getByTestId('users-table').locator('tbody tr');
const search = (page: Page) => page.getByPlaceholder('Search by name or email...');

test.describe('Users Management', () => {
  let marker: string;
  test.beforeEach(async ({ page }) => {
    marker = `Zx${randomBytes(3).toString('hex')}`;
    await seedUsers(page, marker, 6);
    await loginAsAdmin(page);
    await page.goto('/secret-admin/users');
    await page.evaluate(() => localStorage.removeItem('admin_users_preferences'));
    await page.reload();
  });

  test('searches on the server and counts x of y users', async ({ page }) => {
    await search(page).fill(marker);
    await expect(rows(page)).toHaveCount(6);
    const shown = page.getByTestId('users-shown');
    await expect(shown).toContainText('6 of ');
    await search(page).fill(`${marker.toLowerCase()}-4@`);
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText('Dlex');
    await search(page).fill(`${marker}-nobody`);
    await expect(page.getByTestId('users-empty')).toContainText('No users found');
  });

  test('filters by status, e-mail status and role, and Clear Filters resets them', async ({ page }) => {
    await search(page).fill(marker);
    await expect(rows(page)).toHaveCount(6);
    await page.getByRole('combobox', { name: 'Status', exact: true }).click();
    await page.getByRole('option', { name: 'Inactive' }).click();
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText('Clex');
    await page.getByRole('combobox', { name: 'Status', exact: true }).click();
    await page.getByRole('option', { name: 'All statuses' }).click();
    await page.getByRole('combobox', { name: 'Email status' }).click();
    await page.getByRole('option', { name: 'Unverified' }).click();
    await expect(rows(page)).toHaveCount(3);
    await page.getByRole('combobox', { name: 'Role', exact: true }).click();
    await page.getByRole('option', { name: 'Admin' }).click();
    await expect(page.getByTestId('users-empty')).toBeVisible();
    await page.getByRole('button', { name: 'Clear Filters' }).click();
    await expect(search(page)).toHaveValue('');
    await expect(page.getByRole('combobox', { name: 'Email status' })).toHaveValue('All email statuses');
  });

  test('sorts by a column, toggling the direction, and pages with First/Previous/Next/Last', async ({ page }) => {
    await search(page).fill(marker);
    await expect(rows(page)).toHaveCount(6);
    await page.getByRole('button', { name: 'User', exact: true }).click();
    await expect(rows(page).first()).toContainText('Alex');
    await page.getByRole('button', { name: 'User', exact: true }).click();
    await expect(rows(page).first()).toContainText('Flex');
    await expect(page.getByRole('columnheader', { name: 'User' })).toHaveAttribute('aria-sort', 'descending');

    await page.getByRole('combobox', { name: 'Rows per page' }).click();
    await page.getByRole('option', { name: '5', exact: true }).click();
    await expect(rows(page)).toHaveCount(5);
    await expect(page.getByTestId('page-indicator')).toHaveText('Page 1 of 2');
    await expect(page.getByText('Showing 1 to 5 of 6 users')).toBeVisible();
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText('Alex');
    await expect(page.getByText('Showing 6 to 6 of 6 users')).toBeVisible();
    await page.getByRole('button', { name: 'First', exact: true }).click();
    await expect(page.getByTestId('page-indicator')).toHaveText('Page 1 of 2');
    await page.getByRole('button', { name: 'Last', exact: true }).click();
    await expect(page.getByTestId('page-indicator')).toHaveText('Page 2 of 2');
    await page.getByRole('button', { name: 'Previous', exact: true }).click();
    await expect(page.getByTestId('page-indicator')).toHaveText('Page 1 of 2');

    // Preferences survive a reload.
    await page.reload();
    await expect(page.getByRole('combobox', { name: 'Rows per page' })).toHaveValue('5');
    await expect(page.getByRole('columnheader', { name: 'User' })).toHaveAttribute('aria-sort', 'descending');
  });

  test('keeps a filtered, sorted, paged list in its URL: a reload, Back and a shared link bring it back', async ({ page, browser }) => {
    const role = (p: Page) => p.getByRole('combobox', { name: 'Role', exact: true });
    await search(page).fill(marker);
    await expect(rows(page)).toHaveCount(6);
    await role(page).click();
    await page.getByRole('option', { name: 'Client' }).click();
    // Sorted at once, while the list may still reload for the role: the role must stay (useServerList builds on the URL).
    const userSort = page.getByRole('columnheader', { name: 'User' });
    await page.getByRole('button', { name: 'User', exact: true }).click();
    await expect(userSort).toHaveAttribute('aria-sort', 'ascending');
    await page.getByRole('button', { name: 'User', exact: true }).click();
    await expect(userSort).toHaveAttribute('aria-sort', 'descending');
    await page.getByRole('combobox', { name: 'Rows per page' }).click();
    await page.getByRole('option', { name: '5', exact: true }).click();
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText('Alex');
    const url = new URL(page.url());
    expect(Object.fromEntries(url.searchParams)).toEqual({ search: marker, role: 'client', sort: 'name', page: '2', limit: '5' });

    // The URL alone restores it, without the preferences remembered in this browser.
    await page.evaluate(() => localStorage.removeItem('admin_users_preferences'));
    await page.reload();
    await expect(search(page)).toHaveValue(marker);
    await expect(role(page)).toHaveValue('Client');
    await expect(page.getByRole('columnheader', { name: 'User' })).toHaveAttribute('aria-sort', 'descending');
    await expect(page.getByRole('combobox', { name: 'Rows per page' })).toHaveValue('5');
    await expect(page.getByTestId('page-indicator')).toHaveText('Page 2 of 2');
    await expect(rows(page).first()).toContainText('Alex');

    // Back steps through the choices.
    await page.goBack();
    await expect(page.getByTestId('page-indicator')).toHaveText('Page 1 of 2');
    await expect(rows(page)).toHaveCount(5);
    await page.goBack();
    await expect(rows(page)).toHaveCount(6);
    await page.goForward();
    await page.goForward();
    await expect(page.getByTestId('page-indicator')).toHaveText('Page 2 of 2');

    // A link sent to another admin opens the same list.
    const other = await browser.newPage();
    try {
      await loginAsAdmin(other);
      await other.goto(url.pathname + url.search);
      await expect(search(other)).toHaveValue(marker);
      await expect(other.getByTestId('page-indicator')).toHaveText('Page 2 of 2');
      await expect(rows(other)).toHaveCount(1);
      await expect(rows(other).first()).toContainText('Alex');
    } finally {
      await other.close();
    }
  });

  test('creates a user with the modal, validating on the way', async ({ page }) => {
    const email = `${marker.toLowerCase()}-new@portal.test`;
    await page.getByRole('button', { name: 'Add User' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByText('Personal Information')).toBeVisible();
    await expect(dialog.getByText('Security & Access')).toBeVisible();
    await expect(dialog.getByText('Account Status')).toBeVisible();
    await expect(dialog.getByLabel('Active Account')).toBeChecked();
    await expect(dialog.getByLabel('Email Verified')).not.toBeChecked();
    await dialog.getByRole('button', { name: 'Create User' }).click();
    await expect(dialog.getByText('Email is required')).toBeVisible();
    await dialog.getByLabel('First name').fill('Nova');
    await dialog.getByLabel('Last name').fill(marker);
    await dialog.getByRole('textbox', { name: 'Email' }).fill(email);
    await dialog.getByRole('textbox', { name: 'Password' }).fill('12345');
    await dialog.getByRole('button', { name: 'Create User' }).click();
    await expect(dialog.getByText('Minimum 6 characters required').last()).toBeVisible();
    await dialog.getByRole('textbox', { name: 'Password' }).fill('123456');
    await dialog.getByRole('button', { name: 'Create User' }).click();
    // The server refuses a password from lists of leaked ones, and the form says why next to the field.
    await expect(dialog.getByText('This password is too common. Please choose one that is harder to guess.').first()).toBeVisible();
    await dialog.getByRole('textbox', { name: 'Password' }).fill('nova-7-media');
    await dialog.getByLabel('Company').fill('Nova Media');
    await dialog.getByRole('button', { name: 'Create User' }).click();
    await expect(page.getByText('User created successfully!')).toBeVisible();
    await expect(dialog).toHaveCount(0);
    await search(page).fill(email);
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText('Nova');
    // The success message clears itself after 3 s.
    await expect(page.getByText('User created successfully!')).toHaveCount(0, { timeout: 5000 });
  });

  test('edits a user and shows the account information', async ({ page }) => {
    const email = `${marker.toLowerCase()}-2@portal.test`;
    await search(page).fill(email);
    await expect(rows(page)).toHaveCount(1);
    await page.getByRole('button', { name: `Edit ${email}` }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByTestId('account-info')).toContainText('User ID');
    await expect(dialog.getByTestId('account-info')).toContainText('Last Login');
    await dialog.getByLabel('First name').fill('Bea');
    await dialog.getByLabel('Country').fill('Germany');
    await dialog.getByRole('button', { name: 'Update User' }).click();
    await expect(page.getByText('User updated successfully!')).toBeVisible();
    await expect(rows(page).first()).toContainText('Bea');
  });

  test('verifies, deactivates, activates and deletes with the spec confirmation', async ({ page }) => {
    const email = `${marker.toLowerCase()}-1@portal.test`;
    await search(page).fill(email);
    await expect(rows(page)).toHaveCount(1);
    const row = rows(page).first();
    await expect(row).toContainText('Unverified');
    await page.getByRole('button', { name: `Verify ${email}` }).click();
    await expect(page.getByText('User email verified successfully!')).toBeVisible();
    await expect(row).toContainText('Verified');
    await expect(page.getByRole('button', { name: `Verify ${email}` })).toHaveCount(0);

    await page.getByRole('button', { name: `Deactivate ${email}` }).click();
    await expect(page.getByText('User deactivated successfully!')).toBeVisible();
    await expect(row).toContainText('Inactive');
    await page.getByRole('button', { name: `Activate ${email}` }).click();
    await expect(page.getByText('User activated successfully!')).toBeVisible();
    await expect(row).toContainText('Active');

    await page.getByRole('button', { name: `Delete ${email}` }).click();
    await expect(page.getByRole('dialog')).toContainText(`Are you sure you want to delete user "${email}"?`);
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('User deleted successfully!')).toBeVisible();
    await expect(page.getByTestId('users-empty')).toBeVisible();
  });

  test("keeps the signed-in admin's own Deactivate and Delete off, saying why, and the dashboard one link away", async ({ page }) => {
    await search(page).fill(ADMIN.email);
    await expect(rows(page)).toHaveCount(1);
    for (const [name, reason] of [
      [`Deactivate ${ADMIN.email}`, 'You cannot deactivate your own account.'],
      [`Delete ${ADMIN.email}`, 'You cannot delete your own account.'],
    ]) {
      const button = page.getByRole('button', { name });
      await expect(button).toHaveAttribute('aria-disabled', 'true');
      await button.hover();
      await expect(page.getByRole('tooltip', { name: reason })).toBeVisible();
      await button.click({ force: true });
      await expect(page.getByRole('dialog')).toHaveCount(0);
    }
    await expect(rows(page).first()).toContainText('Active');
    await page.getByRole('link', { name: 'Back to Dashboard' }).click();
    await expect(page).toHaveURL(/\/secret-admin\/dashboard$/);
  });

  test('shows a refused action as the error it is, never as a success', async ({ page }) => {
    const email = `${marker.toLowerCase()}-2@portal.test`;
    await search(page).fill(email);
    await expect(rows(page)).toHaveCount(1);
    // Another admin deletes the user while this screen still shows it.
    const token = (await (await page.request.post('/api/admin/login', { data: ADMIN })).json()).data.token as string;
    const listed = await page.request.get(`/api/admin/users?search=${encodeURIComponent(email)}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    const userId = (await listed.json()).data[0].id as number;
    expect((await page.request.delete(`/api/admin/users/${userId}`, { headers: { Authorization: `Bearer ${token}` } })).status()).toBe(200);
    await page.getByRole('button', { name: `Delete ${email}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText(/^Failed to delete user: /)).toBeVisible();
    await expect(page.getByText('User deleted successfully!')).toHaveCount(0);
  });

  test('has no serious or critical accessibility violations, with the modal open too', async ({ page }) => {
    await search(page).fill(marker);
    await expect(rows(page)).toHaveCount(6);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Add User' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });
});
