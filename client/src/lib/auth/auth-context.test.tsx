import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOKEN_KEY } from '../../api/http-client';
import { jsonResponse, renderWithProviders } from '../../test/render';
import { useAuth } from './auth-context';
import { USER_KEY } from './session';

let auth: ReturnType<typeof useAuth>;
function Probe() {
  // The probe hands the hook's value to the test on purpose.
  // eslint-disable-next-line react-hooks/globals
  auth = useAuth();
  return <p data-testid="status">{auth.status}</p>;
}

const adminAnswer = (admin: object, token = 'Bearer abc.def') => jsonResponse(200, { success: true, data: { token, admin } });

describe('auth context', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('stores a client login under the spec keys', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        jsonResponse(200, { token: 'tok', user: { id: 2, email: 'c@x.io', first_name: 'C', role: 'client', user_type: 'client' } }),
      ),
    );
    renderWithProviders(<Probe />);
    await act(() => auth.login('c@x.io', 'pw'));
    expect(localStorage.getItem(TOKEN_KEY)).toBe('tok');
    expect(JSON.parse(localStorage.getItem(USER_KEY)!)).toMatchObject({ email: 'c@x.io', token: 'tok' });
    expect(screen.getByTestId('status').textContent).toBe('signedIn');
  });

  it('refuses a login answer without user or token', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(200, { token: 'tok' })),
    );
    renderWithProviders(<Probe />);
    await expect(auth.login('c@x.io', 'pw')).rejects.toThrow('Invalid login response: missing user data or token');
  });

  it('requires e-mail and password before calling the server', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    renderWithProviders(<Probe />);
    await expect(auth.login('', 'pw')).rejects.toThrow('Email and password are required');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("strips a leading 'bearer' from the admin token and defaults the admin's names", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => adminAnswer({ id: 1, email: 'a@x.io', first_name: '', last_name: null, role: 'admin', user_type: 'admin' })),
    );
    renderWithProviders(<Probe />);
    const { user } = await act(() => auth.adminLogin('a@x.io', 'pw'));
    expect(user!.token).toBe('abc.def');
    expect(user!.first_name).toBe('Admin');
    expect(user!.last_name).toBe('');
    expect(localStorage.getItem(TOKEN_KEY)).toBe('abc.def');
  });

  it('hands back the challenge of a two-factor sign-in, and stores nothing until its second step', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(200, { success: true, data: { mfa: 'verify', mfa_token: 'challenge' } })),
    );
    renderWithProviders(<Probe />);
    const result = await act(() => auth.adminLogin('a@x.io', 'pw'));
    expect(result).toEqual({ challenge: { mfa: 'verify', mfa_token: 'challenge' } });
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
    expect(screen.getByTestId('status').textContent).not.toBe('signedIn');
    act(() => {
      auth.acceptAdminSession({
        token: 'sess',
        admin: { id: 1, email: 'a@x.io', first_name: 'A', role: 'admin', user_type: 'admin' } as never,
      });
    });
    expect(localStorage.getItem(TOKEN_KEY)).toBe('sess');
    expect(screen.getByTestId('status').textContent).toBe('signedIn');
  });

  it('refuses an admin login whose account is not an admin, and stores nothing', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => adminAnswer({ id: 3, email: 'c@x.io', role: 'client', user_type: 'client' })),
    );
    renderWithProviders(<Probe />);
    await expect(auth.adminLogin('c@x.io', 'pw')).rejects.toThrow('Invalid admin credentials or insufficient permissions');
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
  });

  it('clears the session on logout even when the server call fails', async () => {
    localStorage.setItem(TOKEN_KEY, 't');
    localStorage.setItem(USER_KEY, JSON.stringify({ id: 1, email: 'a@x.io', role: 'admin' }));
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('offline');
      }),
    );
    renderWithProviders(<Probe />);
    await act(() => new Promise((resolve) => setTimeout(resolve, 80)));
    expect(screen.getByTestId('status').textContent).toBe('signedIn');
    await act(() => auth.logout());
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
    expect(localStorage.getItem(USER_KEY)).toBeNull();
    expect(screen.getByTestId('status').textContent).toBe('signedOut');
  });

  it('ends a restored session when the server says the token is no longer valid', async () => {
    localStorage.setItem(TOKEN_KEY, 'revoked');
    localStorage.setItem(USER_KEY, JSON.stringify({ id: 1, email: 'a@x.io', role: 'client' }));
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(401, { message: 'Authentication expired. Please log in again.' })),
    );
    renderWithProviders(<Probe />);
    await act(() => new Promise((resolve) => setTimeout(resolve, 120)));
    expect(screen.getByTestId('status').textContent).toBe('signedOut');
    expect(auth.error).toBe('Authentication expired. Please log in again.');
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
  });
});
