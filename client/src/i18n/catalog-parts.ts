/**
 * The catalogs ship in four parts. The first comes with the first page (what every page shows: common words, errors,
 * fields, the guard, not found); the landing part, the landing page's own messages, loads with the landing page (so
 * a sign-in page opened first does not carry them); the sign-in part, the messages of the sign-in, registration,
 * password reset and two-factor screens, loads with those screens; the rest, the messages of the signed-in screens,
 * loads with those (which get the sign-in part too: they show two-factor steps and server messages). See app/router.tsx.
 */
export const SIGNED_IN_PREFIXES = [
  'admin',
  'adminLicenses',
  'users',
  'licenses',
  'dashboard',
  'account',
  'devices',
  'portal',
  'audit',
  'log',
] as const;
export const SIGN_IN_PREFIXES = ['login', 'register', 'forgot', 'reset', 'verify', 'confirmEmail', 'adminLogin', 'mfa'] as const;

export const CATALOG_PARTS = ['first', 'landing', 'signIn', 'rest'] as const;
export type CatalogPart = (typeof CATALOG_PARTS)[number];

export const partOf = (id: string): CatalogPart => {
  const prefix = id.split('.')[0];
  if ((SIGNED_IN_PREFIXES as readonly string[]).includes(prefix)) return 'rest';
  if (prefix === 'landing') return 'landing';
  return (SIGN_IN_PREFIXES as readonly string[]).includes(prefix) ? 'signIn' : 'first';
};
