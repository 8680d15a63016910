import { act, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOKEN_KEY } from '../api/http-client';
import { jsonResponse, renderWithProviders } from '../test/render';
import { USER_KEY } from '../lib/auth/session';
import { GUARD_GRACE_MS, guardRedirect, RouteGuard } from './guard';

describe('guardRedirect', () => {
  const signedOut = { status: 'signedOut' as const, isAdmin: false };
  const client = { status: 'signedIn' as const, isAdmin: false };
  const admin = { status: 'signedIn' as const, isAdmin: true };

  it('sends visitors to the matching login page', () => {
    expect(guardRedirect(signedOut, { requireAuth: true })).toBe('/login');
    expect(guardRedirect(signedOut, { requireAuth: true, requireAdmin: true })).toBe('/secret-admin');
    expect(guardRedirect(signedOut, { requireAdmin: true })).toBe('/secret-admin');
  });

  it('sends a signed-in non-admin on an admin page to /unauthorized', () => {
    expect(guardRedirect(client, { requireAuth: true, requireAdmin: true })).toBe('/unauthorized');
  });

  it('lets through who may see the page', () => {
    expect(guardRedirect(client, { requireAuth: true })).toBeNull();
    expect(guardRedirect(admin, { requireAuth: true, requireAdmin: true })).toBeNull();
    expect(guardRedirect(signedOut, {})).toBeNull();
  });
});

function Where() {
  const location = useLocation();
  return (
    <p data-testid="where">{`${location.pathname} from ${(location.state as { from?: { pathname: string } })?.from?.pathname ?? '-'}`}</p>
  );
}

function renderAt(path: string, flags: { requireAuth?: boolean; requireAdmin?: boolean }) {
  const router = createMemoryRouter(
    [
      { path: '/guarded', element: <RouteGuard {...flags}>secret content</RouteGuard> },
      { path: '*', element: <Where /> },
    ],
    { initialEntries: [path] },
  );
  return renderWithProviders(<RouterProvider router={router} />);
}

describe('RouteGuard', () => {
  // GET /api/me confirms whatever session was stored.
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(200, { success: true, data: JSON.parse(localStorage.getItem(USER_KEY) ?? 'null') })),
    );
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("shows 'Checking authentication...' while the session loads and for the 500 ms grace, then redirects a visitor with the origin remembered", async () => {
    renderAt('/guarded', { requireAuth: true });
    expect(screen.getByText('Checking authentication...')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(60));
    expect(screen.getByText('Checking authentication...')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(GUARD_GRACE_MS));
    expect(screen.getByTestId('where').textContent).toBe('/login from /guarded');
  });

  it('sends a restored client away from an admin page to /unauthorized without showing it', async () => {
    localStorage.setItem(TOKEN_KEY, 't');
    localStorage.setItem(USER_KEY, JSON.stringify({ id: 1, email: 'c@x.io', role: 'client', user_type: 'client' }));
    renderAt('/guarded', { requireAuth: true, requireAdmin: true });
    await act(() => vi.advanceTimersByTimeAsync(100));
    await act(() => vi.advanceTimersByTimeAsync(GUARD_GRACE_MS));
    expect(screen.queryByText('secret content')).toBeNull();
    expect(screen.getByTestId('where').textContent).toBe('/unauthorized from /guarded');
  });

  it('shows the page to a restored admin', async () => {
    localStorage.setItem(TOKEN_KEY, 't');
    localStorage.setItem(USER_KEY, JSON.stringify({ id: 1, email: 'a@x.io', role: 'admin', user_type: 'admin' }));
    renderAt('/guarded', { requireAuth: true, requireAdmin: true });
    await act(() => vi.advanceTimersByTimeAsync(100));
    await act(() => vi.advanceTimersByTimeAsync(GUARD_GRACE_MS));
    expect(screen.getByText('secret content')).toBeTruthy();
  });

  it('treats stored data with is_admin as an admin (spec section 6)', async () => {
    localStorage.setItem(TOKEN_KEY, 't');
    localStorage.setItem(USER_KEY, JSON.stringify({ id: 1, email: 'a@x.io', role: 'client', user_type: 'client', is_admin: true }));
    renderAt('/guarded', { requireAdmin: true });
    await act(() => vi.advanceTimersByTimeAsync(100));
    await act(() => vi.advanceTimersByTimeAsync(GUARD_GRACE_MS));
    expect(screen.getByText('secret content')).toBeTruthy();
  });
});
