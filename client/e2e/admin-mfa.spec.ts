import { expect, Page, test } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { adminToken, fitsViewport, seriousAxeViolations, uniqueEmail } from './support/portal';
import { currentStep, freshCode, totpCode } from './support/totp';

/** A second admin, so the seeded one that other tests sign in with never gets a second factor. */
async function createAdmin(page: Page) {
  const admin = { email: uniqueEmail('mfa-admin'), password: 'mfa-admin-secret-1' };
  const response = await page.request.post('/api/admin/users', {
    headers: { Authorization: `Bearer ${await adminToken(page)}` },
    data: { ...admin, first_name: 'Mira', user_type: 'admin', is_verified: true },
  });
  expect(response.status()).toBe(201);
  return admin;
}

async function passwordStep(page: Page, admin: { email: string; password: string }, labels = { email: 'Email', password: 'Password' }) {
  await page.getByLabel(labels.email).fill(admin.email);
  await page.getByRole('textbox', { name: labels.password }).fill(admin.password);
  await page.locator('button[type="submit"]').click();
}

test.describe('two-factor sign-in for administrators', () => {
  test('set up from the user menu with the QR code and key, then sign in with codes computed from the key, and with a recovery code', async ({
    page,
  }) => {
    const admin = await createAdmin(page);
    await page.goto('/secret-admin');
    await passwordStep(page, admin);
    await expect(page).toHaveURL(/\/secret-admin\/dashboard$/);

    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Profile and security' }).click();
    await expect(page).toHaveURL(/\/secret-admin\/profile$/);
    const card = page.getByTestId('two-factor');
    await expect(card.getByTestId('mfa-state')).toHaveText('Off');
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Setting up takes the password: a stolen session alone cannot enrol another authenticator.
    await card.getByRole('button', { name: 'Set up' }).click();
    const setupDialog = page.getByRole('dialog', { name: 'Set up' });
    await setupDialog.getByLabel('Current password').fill('not-my-password');
    await setupDialog.getByRole('button', { name: 'Set up' }).click();
    await expect(setupDialog.getByText('Current password is incorrect.')).toBeVisible();
    await setupDialog.getByLabel('Current password').fill(admin.password);
    await setupDialog.getByRole('button', { name: 'Set up' }).click();
    await expect(setupDialog).toBeHidden();
    await expect(card.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
    const secret = ((await card.getByTestId('mfa-secret').textContent()) ?? '').replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await card.getByLabel('Authentication code').fill('000000');
    await card.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
    await expect(card.getByRole('alert')).toHaveText('Invalid authentication code.');
    let used = currentStep();
    await card.getByLabel('Authentication code').fill(totpCode(secret, used));
    await card.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();

    const panel = page.getByTestId('recovery-codes');
    await expect(panel.getByRole('heading', { name: 'Save your recovery codes' })).toBeVisible();
    const recoveryCodes = (await panel.getByRole('listitem').allTextContents()).map((code) => code.trim());
    expect(recoveryCodes).toHaveLength(10);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await expect(panel.getByRole('button', { name: 'Continue' })).toBeDisabled();
    await panel.getByLabel('I have saved my recovery codes').check();
    await panel.getByRole('button', { name: 'Continue' }).click();
    await expect(card.getByTestId('mfa-state')).toHaveText('On');
    await expect(card).toContainText('10 recovery codes left');

    // The next sign-in takes a code after the password, in German and on a phone.
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/secret-admin$/);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('language-select').first().selectOption('de');
    await passwordStep(page, admin, { email: 'E-Mail', password: 'Passwort' });
    await expect(page.getByRole('heading', { name: 'Zwei-Faktor-Anmeldung' })).toBeVisible();
    await expect(page).toHaveURL(/\/secret-admin$/);
    await expect.poll(() => fitsViewport(page)).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByLabel('Authentifizierungscode').fill('123456');
    await page.getByRole('button', { name: 'Bestätigen' }).click();
    await expect(page.getByRole('alert')).toHaveText('Ungültiger Authentifizierungscode.');
    const next = freshCode(secret, used);
    used = next.step;
    await page.getByLabel('Authentifizierungscode').fill(next.code);
    await page.getByRole('button', { name: 'Bestätigen' }).click();
    // Signed in, back on the page signed out from.
    await expect(page).toHaveURL(/\/secret-admin\/profile$/);
    await expect(page.getByTestId('mfa-state')).toHaveText('Ein');
    // On a phone, Logout is in the account menu.
    await page.getByRole('button', { name: 'Kontomenü' }).click();
    await page.getByRole('menuitem', { name: 'Abmelden' }).click();

    // A recovery code instead of the app's code, in English at full width.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByTestId('language-select').first().selectOption('en');
    await passwordStep(page, admin);
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await page.getByLabel('Recovery code').fill(recoveryCodes[0]);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL(/\/secret-admin\/profile$/);

    // Turning it off takes the password and a second factor.
    await expect(card).toContainText('9 recovery codes left');
    await card.getByRole('button', { name: 'Turn off' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Current password').fill('not-my-password');
    await dialog.getByLabel('Code from your app, or a recovery code').fill(recoveryCodes[1]);
    await dialog.getByRole('button', { name: 'Turn off' }).click();
    await expect(dialog.getByText('Current password is incorrect.')).toBeVisible();
    // Still signed in: a wrong password here is no reason to end the session.
    await expect(page).toHaveURL(/\/secret-admin\/profile$/);
    await dialog.getByLabel('Current password').fill(admin.password);
    await dialog.getByRole('button', { name: 'Turn off' }).click();
    await expect(card.getByRole('status')).toHaveText('Two-factor sign-in is off.');
    await expect(card.getByTestId('mfa-state')).toHaveText('Off');
  });

  test.describe('with ADMIN_REQUIRE_MFA=true', () => {
    let portal: ChildProcess;
    let dataDir: string;
    const port = Number(process.env.E2E_PORT ?? 4310) + 1;
    const base = `http://127.0.0.1:${port}`;

    test.beforeAll(async () => {
      const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
      dataDir = mkdtempSync(join(tmpdir(), 'portal-browser-mfa-'));
      portal = spawn(process.execPath, [join(repoRoot, 'server/dist/server/src/main.js')], {
        env: {
          ...process.env,
          NODE_ENV: 'test',
          PORT: String(port),
          HOST: '127.0.0.1',
          PUBLIC_URL: base,
          DATA_DIR: dataDir,
          DATABASE_URL: '',
          ADMIN_EMAIL: 'strict-admin@portal.test',
          ADMIN_PASSWORD: 'strict-admin-password-1',
          ADMIN_REQUIRE_MFA: 'true',
          JWT_SECRET: 'browser-tests-mfa-secret-browser-tests-mfa-secret-0123',
          CLIENT_DIST: process.env.E2E_CLIENT_DIST ?? join(repoRoot, 'client/dist'),
          LOG_LEVEL: 'warn',
        },
        stdio: 'ignore',
      });
      await expect.poll(async () => (await fetch(`${base}/api/health`).catch(() => null))?.status ?? 0, { timeout: 30_000 }).toBe(200);
    });
    test.afterAll(async () => {
      const exited = new Promise((done) => portal.once('exit', done));
      portal.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    });

    test('an admin without a second factor sets one up at the next sign-in before any session', async ({ page }) => {
      await page.goto(`${base}/secret-admin`);
      await passwordStep(page, { email: 'strict-admin@portal.test', password: 'strict-admin-password-1' });
      await expect(page.getByRole('heading', { name: 'Set up two-factor sign-in' })).toBeVisible();
      await expect(page.getByText('Administrators of this portal sign in with a second factor.')).toBeVisible();
      expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBeNull();
      await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
      expect(await seriousAxeViolations(page)).toEqual([]);

      const secret = ((await page.getByTestId('mfa-secret').textContent()) ?? '').replace(/\s/g, '');
      await page.getByLabel('Authentication code').fill(totpCode(secret));
      await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
      await expect(page.getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10);
      expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBeNull();
      await page.getByLabel('I have saved my recovery codes').check();
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page).toHaveURL(/\/secret-admin\/dashboard$/);
      expect(await page.evaluate(() => localStorage.getItem('auth_token'))).not.toBeNull();

      await page.goto(`${base}/secret-admin/profile`);
      await expect(page.getByTestId('two-factor')).toContainText('Required for every administrator of this portal.');
      await expect(page.getByTestId('mfa-state')).toHaveText('On');
    });
  });
});
