import { expect, Page, test } from '@playwright/test';
import {
  createVerifiedClient,
  fitsViewport,
  loginAsAdmin,
  loginAsClient,
  mailedLink,
  seriousAxeViolations,
  uniqueEmail,
} from './support/portal';

const FIREFOX_ON_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';
const SAFARI_ON_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Version/18.0 Mobile/15E148 Safari/604.1';

/** Another sign-in of the same account, as another device would make it; returns its token. */
async function signInElsewhere(page: Page, credentials: { email: string; password: string }, userAgent: string): Promise<string> {
  const response = await page.request.post('/api/login', { data: credentials, headers: { 'User-Agent': userAgent } });
  expect(response.status()).toBe(200);
  return (await response.json()).token;
}

/** Every header control is on screen (a fixed header that overflows does not widen the page, so fitsViewport misses it). */
async function headerFits(page: Page): Promise<boolean> {
  const width = page.viewportSize()!.width;
  const boxes = await Promise.all(
    [page.getByTestId('user-menu'), page.getByTestId('language-select').first()].map((control) => control.boundingBox()),
  );
  return boxes.every((box) => !!box && box.x >= 0 && box.x + box.width <= width);
}

const meStatus = async (page: Page, token: string) =>
  (await page.request.get('/api/me', { headers: { Authorization: `Bearer ${token}` } })).status();

async function openProfile(page: Page) {
  await page.getByRole('button', { name: /^(Account menu|Kontomenü)$/ }).click();
  await page.getByRole('menuitem', { name: /^(Profile and security|Profil und Sicherheit)$/ }).click();
}

test.describe('profile and sessions', () => {
  test('a customer changes names, company, phone and country from the user menu', async ({ page }) => {
    const client = await createVerifiedClient(page);
    await loginAsClient(page, client);
    await openProfile(page);
    await expect(page).toHaveURL(/\/dashboard\/profile$/);
    await expect(page.getByRole('heading', { name: 'Profile and security' })).toBeVisible();
    const card = page.getByTestId('personal-info');
    await expect(card.getByLabel('First name')).toHaveValue('Casey');
    expect(await seriousAxeViolations(page)).toEqual([]);

    await card.getByLabel('First name').fill('');
    await card.getByRole('button', { name: 'Save changes' }).click();
    await expect(card.getByText('This field is required')).toBeVisible();
    await card.getByLabel('First name').fill('Carla');
    await card.getByLabel('Company').fill('Stream GmbH');
    await card.getByLabel('Phone').fill('+49 30 123456');
    await card.getByLabel('Country').fill('Germany');
    await card.getByRole('button', { name: 'Save changes' }).click();
    await expect(card.getByRole('status')).toHaveText('Profile updated.');
    // The header greets with the new name.
    await expect(page.getByTestId('welcome')).toContainText('Carla');
    await page.reload();
    await expect(card.getByLabel('Company')).toHaveValue('Stream GmbH');
    await expect(card.getByLabel('Country')).toHaveValue('Germany');
  });

  test('changing the password takes the current one and signs out every other session', async ({ page }) => {
    const client = await createVerifiedClient(page);
    const elsewhere = await signInElsewhere(page, client, FIREFOX_ON_LINUX);
    await loginAsClient(page, client);
    await page.goto('/dashboard/profile');
    const card = page.getByTestId('password');
    await card.getByLabel('Current password').fill('not-my-password');
    await card.getByRole('textbox', { name: 'New password', exact: true }).fill('a-fresh-secret-1');
    await card.getByRole('textbox', { name: 'Confirm new password' }).fill('a-fresh-secret-1');
    await card.getByRole('button', { name: 'Change password' }).click();
    await expect(card.getByText('Current password is incorrect.')).toBeVisible();
    expect(await meStatus(page, elsewhere)).toBe(200);

    await card.getByLabel('Current password').fill(client.password);
    await card.getByRole('button', { name: 'Change password' }).click();
    await expect(card.getByRole('status')).toHaveText('Password changed. Every other session has been signed out.');
    expect(await meStatus(page, elsewhere)).toBe(401);
    // This session goes on.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Profile and security' })).toBeVisible();
    await expect(page.getByTestId('sessions').getByTestId('session')).toHaveCount(1);
  });

  test('a new e-mail address counts only once the link mailed to it is opened', async ({ page }) => {
    const client = await createVerifiedClient(page);
    const next = uniqueEmail('moved');
    await loginAsClient(page, client);
    await page.goto('/dashboard/profile');
    const card = page.getByTestId('email-address');
    await expect(card).toContainText(`You sign in with ${client.email}.`);
    await card.getByLabel('New e-mail address').fill(next);
    await card.getByLabel('Current password').fill(client.password);
    await card.getByRole('button', { name: 'Send confirmation link' }).click();
    await expect(card.getByRole('status')).toContainText('We have sent a confirmation link to the new address.');
    await expect(card.getByTestId('pending-email')).toContainText(`Waiting for confirmation of ${next}`);
    await expect(card).toContainText(`You sign in with ${client.email}.`);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.goto(await mailedLink(next, 'confirm-email'));
    await expect(page.getByRole('status')).toContainText(`Your e-mail address is now ${next}.`);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'Go to your profile' }).click();
    await expect(page.getByTestId('email-address')).toContainText(`You sign in with ${next}.`);
    await expect(page.getByTestId('pending-email')).toHaveCount(0);
  });

  test('where you are signed in: one device signed out, then every other, in German on a phone', async ({ page }) => {
    const client = await createVerifiedClient(page);
    const firefox = await signInElsewhere(page, client, FIREFOX_ON_LINUX);
    const iphone = await signInElsewhere(page, client, SAFARI_ON_IPHONE);
    await loginAsClient(page, client);
    await page.goto('/dashboard/profile');
    const card = page.getByTestId('sessions');
    await expect(card.getByTestId('session')).toHaveCount(3);
    await expect(card.getByText('This device')).toHaveCount(1);
    await expect(card).toContainText('Firefox on Linux');
    await expect(card).toContainText('Safari on iOS');

    await card.getByRole('button', { name: 'Sign out Firefox on Linux' }).click();
    await expect(card.getByRole('status')).toHaveText('Signed out.');
    await expect(card.getByTestId('session')).toHaveCount(2);
    expect(await meStatus(page, firefox)).toBe(401);
    expect(await meStatus(page, iphone)).toBe(200);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('language-select').first().selectOption('de');
    await expect(page.getByRole('heading', { name: 'Profil und Sicherheit' })).toBeVisible();
    await expect(card.getByRole('heading', { name: 'Wo Sie angemeldet sind' })).toBeVisible();
    await expect(card).toContainText('Safari unter iOS');
    await expect.poll(() => fitsViewport(page)).toBe(true);
    expect(await headerFits(page)).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await card.getByRole('button', { name: 'Überall sonst abmelden' }).click();
    await expect(card.getByRole('status')).toHaveText('1 andere Sitzung abgemeldet.');
    await expect(card.getByTestId('session')).toHaveCount(1);
    await expect(card).toContainText('Sie sind nur hier angemeldet.');
    expect(await meStatus(page, iphone)).toBe(401);
  });

  test('the admin opens the same page from the admin shell’s user menu', async ({ page }) => {
    await loginAsAdmin(page);
    await openProfile(page);
    await expect(page).toHaveURL(/\/secret-admin\/profile$/);
    await expect(page.getByTestId('personal-info').getByLabel('First name')).toHaveValue('Admin');
    await expect(page.getByTestId('two-factor')).toBeVisible();
    await expect(page.getByTestId('sessions').getByText('This device')).toBeVisible();
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => fitsViewport(page)).toBe(true);
    expect(await headerFits(page)).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    // On a phone, Logout is in the account menu.
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/secret-admin$/);
  });
});
