import { expect, test } from '@playwright/test';
import { createVerifiedClient, loginAsAdmin, loginAsClient, seriousAxeViolations } from './support/portal';

test.describe('routes and the guard', () => {
  test('the landing page has its header anchors, hero, six features, call to action and footer', async ({ page }) => {
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' }).first();
    for (const anchor of ['Features', 'Documentation', 'Support', 'Download', 'Pricing']) {
      const link = nav.getByRole('link', { name: anchor });
      await expect(link).toBeVisible();
      const target = (await link.getAttribute('href'))!;
      await expect(page.locator(target)).toHaveCount(1);
    }
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Live video');
    await expect(page.getByRole('link', { name: 'Start free trial' }).first()).toHaveAttribute('href', '/register');
    await expect(page.getByRole('link', { name: 'Watch demo' })).toHaveAttribute('href', '#demo');
    for (const feature of ['Performance', 'Protocols', 'Adaptive bitrate', 'Security', 'Analytics', 'Setup']) {
      await expect(page.getByRole('heading', { name: feature, exact: true })).toBeVisible();
    }
    await expect(page.getByRole('heading', { name: 'Ready to go live?' })).toBeVisible();
    await expect(page.getByRole('contentinfo')).toContainText('StreamHub');
    await page.getByRole('link', { name: 'Register' }).first().click();
    await expect(page).toHaveURL(/\/register$/);
  });

  test('/admin and any /admin/... path are replaced by /secret-admin', async ({ page }) => {
    for (const path of ['/admin', '/admin/users', '/admin/a/b?x=1']) {
      await page.goto('/');
      await page.goto(path);
      await expect(page).toHaveURL(/\/secret-admin$/);
      await expect(page.getByRole('button', { name: 'Log in as Admin' })).toBeVisible();
      // replaced, not pushed: one step back is the page before /admin
      await page.goBack();
      await expect(page).toHaveURL(/\/$/);
    }
  });

  test('an unknown path shows the not-found page with Go Home and Go Back', async ({ page }) => {
    await page.goto('/login');
    await page.goto('/no/such/page');
    await expect(page.getByText('404')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
    await expect(page.getByText("The page you're looking for doesn't exist or has been moved.")).toBeVisible();
    await page.getByRole('button', { name: 'Go Back' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto('/no/such/page');
    await page.getByRole('link', { name: 'Go Home' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('a visitor on /dashboard goes to /login and, after signing in, back to /dashboard', async ({ page }) => {
    const client = await createVerifiedClient(page);
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login$/);
    await loginAsClient(page, client);
    await expect(page.getByText('Client Portal')).toBeVisible();
  });

  test('a visitor on an admin page goes to /secret-admin and returns to that page after signing in', async ({ page }) => {
    await page.goto('/secret-admin/users');
    await expect(page).toHaveURL(/\/secret-admin$/);
    await page.getByLabel('Email').fill('admin@portal.test');
    await page.getByRole('textbox', { name: 'Password' }).fill('admin-password-1');
    await page.getByRole('button', { name: 'Log in as Admin' }).click();
    await expect(page).toHaveURL(/\/secret-admin\/users$/);
    await expect(page.getByRole('heading', { name: 'Users Management' })).toBeVisible();
  });

  test("the guard shows 'Checking authentication...' while a stored session is restored", async ({ page }) => {
    const client = await createVerifiedClient(page);
    await loginAsClient(page, client);
    // The spinner lasts as long as the restore's timers (the short restore delay, then the grace), not as long as a
    // call: the page's clock stands still until the spinner has been seen.
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 1000);
    await page.goto('/dashboard');
    await expect(page.getByText('Checking authentication...')).toBeVisible();
    await page.clock.resume();
    await expect(page.getByText('Client Portal')).toBeVisible();
    await expect(page.getByText('Checking authentication...')).toHaveCount(0);
  });

  test('a signed-in client opening an admin page is sent to /unauthorized without seeing it', async ({ page }) => {
    const client = await createVerifiedClient(page);
    await loginAsClient(page, client);
    let sawUsersCall = false;
    page.on('request', (request) => (sawUsersCall ||= request.url().includes('/api/admin/users')));
    await page.goto('/secret-admin/users');
    await expect(page).toHaveURL(/\/unauthorized$/);
    await expect(page.getByRole('heading', { name: 'Access denied' })).toBeVisible();
    await expect(page.getByText('Users Management')).toHaveCount(0);
    expect(sawUsersCall).toBe(false);
  });

  test('the admin shell has the six sections, the welcome line, and logout ends at /secret-admin', async ({ page }) => {
    await loginAsAdmin(page);
    await expect(page.getByRole('heading', { name: 'Admin Panel' })).toBeVisible();
    await expect(page.getByTestId('welcome')).toHaveText('Welcome, Admin');
    const nav = page.getByRole('navigation', { name: 'Admin sections' });
    for (const section of ['Dashboard', 'Users', 'Versions', 'Licenses', 'Files', 'Logs'])
      await expect(nav.getByRole('link', { name: section })).toBeVisible();
    await nav.getByRole('link', { name: 'Users' }).click();
    await expect(page).toHaveURL(/\/secret-admin\/users$/);
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/secret-admin$/);
    await page.goto('/secret-admin/users');
    await expect(page).toHaveURL(/\/secret-admin$/);
  });

  test('the sidebar collapses behind a menu button on a phone', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await loginAsAdmin(page);
    const usersLink = page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Users' });
    await expect(usersLink).not.toBeInViewport();
    await page.getByRole('button', { name: 'Toggle navigation' }).click();
    await expect(usersLink).toBeInViewport();
    await usersLink.click();
    await expect(page).toHaveURL(/\/secret-admin\/users$/);
    await expect(usersLink).not.toBeInViewport();
  });

  test('the client portal shell greets by first name and logout ends at /login', async ({ page }) => {
    const client = await createVerifiedClient(page, { first_name: 'Robin' });
    await loginAsClient(page, client);
    await expect(page.getByTestId('welcome')).toHaveText('Welcome, Robin');
    await expect(page.getByText(client.email)).toBeVisible();
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => [localStorage.getItem('auth_token'), localStorage.getItem('user_data')])).toEqual([null, null]);
  });

  for (const path of ['/', '/login', '/register', '/secret-admin', '/no/such/page']) {
    test(`public page ${path} has no serious or critical accessibility violations`, async ({ page }) => {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      expect(await seriousAxeViolations(page)).toEqual([]);
    });
  }
});
