import type { SessionUserDto } from '../../api/generated/model';
import { TOKEN_KEY } from '../../api/http-client';

export const USER_KEY = 'user_data';

/** The signed-in user as kept in local storage (spec: User, session). */
export type SessionUser = SessionUserDto & { token: string; is_admin?: boolean };

/** Admin if role or user_type is admin, or stored data carries an is_admin flag (spec section 6). */
export function isAdmin(user: Pick<SessionUser, 'role' | 'user_type' | 'is_admin'> | null | undefined): boolean {
  return !!user && (user.role === 'admin' || user.user_type === 'admin' || user.is_admin === true);
}

export function readStoredSession(): SessionUser | null {
  const token = localStorage.getItem(TOKEN_KEY);
  const raw = localStorage.getItem(USER_KEY);
  if (!token || !raw) return null;
  const user = JSON.parse(raw) as SessionUser;
  return { ...user, token };
}

export function storeSession(user: SessionUser): void {
  localStorage.setItem(TOKEN_KEY, user.token);
  localStorage.setItem(USER_KEY, JSON.stringify(user));
}

export function clearStoredSession(): void {
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(USER_KEY);
}

/** The admin login answer's token may come as 'Bearer …'; the stored token never does. */
export const stripBearer = (token: string) => token.replace(/^bearer\s+/i, '');
