import { createContext, ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { onUnauthorized } from '../../api/http-client';
import type { AdminSessionDataDto, MfaChallengeDto, ResendVerificationDto } from '../../api/generated/model';
import { clearStoredSession, isAdmin, readStoredSession, SessionUser, storeSession, stripBearer } from './session';

/** The admin sign-in's answer: a session, or (two-factor sign-in) the challenge for its second step. */
export type AdminLoginResult = { user: SessionUser; challenge?: undefined } | { challenge: MfaChallengeDto; user?: undefined };

export type AuthStatus = 'loading' | 'signedOut' | 'signedIn';

interface AuthContextValue {
  status: AuthStatus;
  user: SessionUser | null;
  /** Why the session ended or could not start, as the spec words it. */
  error: string | null;
  isAdmin: boolean;
  login(email: string, password: string): Promise<SessionUser>;
  adminLogin(email: string, password: string): Promise<AdminLoginResult>;
  /** Starts the session an admin sign-in's second step answered with. */
  acceptAdminSession(data: AdminSessionDataDto): SessionUser;
  /** Reads the signed-in user again (after a change of name or address), keeping the session. */
  refreshUser(): Promise<void>;
  logout(): Promise<void>;
}

const AuthContext = createContext<AuthContextValue | null>(null);

// Loaded on first use: the landing page needs no API module (nor the query library its hooks import).
const authApi = () => import('./auth-calls');

/** Sends the verification link again (the sign-in page's offer to an unverified account), without the query library. */
export const resendVerification = async (body: ResendVerificationDto) => (await authApi()).resendVerification(body);

/** How long after start-up the stored session is restored (spec section 9). */
export const RESTORE_DELAY_MS = 50;
export const SESSION_EXPIRED = 'Authentication expired. Please log in again.';

export class LoginError extends Error {}

function requireCredentials(email: string, password: string) {
  if (!email.trim() || !password) throw new LoginError('Email and password are required');
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const [status, setStatus] = useState<AuthStatus>('loading');
  const [user, setUser] = useState<SessionUser | null>(null);
  const [error, setError] = useState<string | null>(null);

  const endSession = useCallback((reason: string | null) => {
    clearStoredSession();
    setUser(null);
    setError(reason);
    setStatus('signedOut');
  }, []);

  const startSession = useCallback((next: SessionUser) => {
    storeSession(next);
    setUser(next);
    setError(null);
    setStatus('signedIn');
  }, []);

  // Restore the stored session shortly after start-up, then confirm it with the server in the background.
  useEffect(() => {
    const timer = setTimeout(() => {
      let stored: SessionUser | null;
      try {
        stored = readStoredSession();
      } catch {
        clearStoredSession();
        setError('Failed to initialize authentication');
        setStatus('signedOut');
        return;
      }
      if (!stored) {
        setStatus('signedOut');
        return;
      }
      setUser(stored);
      setStatus('signedIn');
      authApi()
        .then(({ getCurrentUser }) => getCurrentUser())
        .then(({ data }) => startSession({ ...stored, ...data, token: stored.token }))
        .catch(() => undefined); // a 401 ends the session through onUnauthorized; other failures keep the stored one
    }, RESTORE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [startSession]);

  useEffect(() => {
    onUnauthorized(() => endSession(SESSION_EXPIRED));
    return () => onUnauthorized(null);
  }, [endSession]);

  const login = useCallback(
    async (email: string, password: string) => {
      requireCredentials(email, password);
      const response = await (await authApi()).login({ email: email.trim(), password });
      if (!response?.token || !response.user) throw new LoginError('Invalid login response: missing user data or token');
      const next: SessionUser = { ...response.user, user_type: response.user.user_type ?? 'client', token: response.token };
      startSession(next);
      return next;
    },
    [startSession],
  );

  const acceptAdminSession = useCallback(
    (data: AdminSessionDataDto | undefined) => {
      const token = data?.token;
      const admin = data?.admin;
      if (!token || !admin) throw new LoginError('Invalid response: missing token or admin data');
      const next: SessionUser = {
        ...admin,
        first_name: admin.first_name || 'Admin',
        last_name: admin.last_name || '',
        token: stripBearer(token),
      };
      if (!isAdmin(next)) throw new LoginError('Invalid admin credentials or insufficient permissions');
      startSession(next);
      return next;
    },
    [startSession],
  );

  const adminLogin = useCallback(
    async (email: string, password: string): Promise<AdminLoginResult> => {
      requireCredentials(email, password);
      const response = await (await authApi()).adminLogin({ email: email.trim(), password });
      if (!response?.success) throw new LoginError('Invalid response: missing token or admin data');
      if (response.data && 'mfa_token' in response.data) return { challenge: response.data };
      return { user: acceptAdminSession(response.data) };
    },
    [acceptAdminSession],
  );

  const refreshUser = useCallback(async () => {
    const stored = readStoredSession();
    if (!stored) return;
    const { data } = await (await authApi()).getCurrentUser();
    startSession({ ...stored, ...data, token: stored.token });
  }, [startSession]);

  const logout = useCallback(async () => {
    // The server call may fail (network, expired token): local data is cleared anyway.
    await authApi()
      .then(({ logout }) => logout())
      .catch(() => undefined);
    endSession(null);
  }, [endSession]);

  const value = useMemo<AuthContextValue>(
    () => ({ status, user, error, isAdmin: isAdmin(user), login, adminLogin, acceptAdminSession, refreshUser, logout }),
    [status, user, error, login, adminLogin, acceptAdminSession, refreshUser, logout],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const context = useContext(AuthContext);
  if (!context) throw new Error('useAuth needs an AuthProvider');
  return context;
}
