/** The roles an account can have: known to the guards and decorators in common/ as well as to the users module. */

export const USER_ROLES = ['client', 'admin', 'moderator'] as const;
export type UserRole = (typeof USER_ROLES)[number];
