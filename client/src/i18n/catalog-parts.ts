/**
 * The catalogs ship in three parts. The first comes with the first page (the landing page and what every page shows:
 * common words, errors, fields, the guard, not found); the sign-in part, the messages of the sign-in, registration,
 * password reset and two-factor screens, loads with those screens; the rest, the messages of the signed-in screens,
 * loads with those (which get the sign-in part too: they show two-factor steps and server messages). See app/router.tsx.
 */
export const SIGNED_IN_PREFIXES = ['admin', 'adminLicenses', 'users', 'licenses', 'dashboard', 'account', 'devices', 'portal'] as const;
export const SIGN_IN_PREFIXES = ['login', 'register', 'forgot', 'reset', 'verify', 'confirmEmail', 'adminLogin', 'mfa'] as const;

export const CATALOG_PARTS = ['first', 'signIn', 'rest'] as const;
export type CatalogPart = (typeof CATALOG_PARTS)[number];

export const partOf = (id: string): CatalogPart => {
  const prefix = id.split('.')[0];
  if ((SIGNED_IN_PREFIXES as readonly string[]).includes(prefix)) return 'rest';
  return (SIGN_IN_PREFIXES as readonly string[]).includes(prefix) ? 'signIn' : 'first';
};
