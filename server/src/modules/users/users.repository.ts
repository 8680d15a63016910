/**
 * The users table as another module's hot-path statement joins it (auth's per-request session check, one round
 * trip), so the users columns stay named here: alias `u`, the columns a session's user is read with, and the
 * columns that decide whether the user may still be signed in.
 */
export const JOINABLE_USERS = {
  table: 'users u',
  id: 'u.id',
  tokenVersion: 'u.token_version',
  isActive: 'u.is_active',
  role: 'u.role',
  sessionUserColumns: 'u.id AS id, u.email AS email, u.role AS role',
} as const;
