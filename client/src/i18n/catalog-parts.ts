/**
 * The catalogs ship in two parts. The first comes with the first page (the public pages, sign-in, registration,
 * password reset, the admin sign-in's second step); the rest, the messages of the signed-in screens, loads with
 * those screens (see app/router.tsx). A message belongs to the rest when its id starts with one of these.
 */
export const SIGNED_IN_PREFIXES = ['admin', 'adminLicenses', 'users', 'licenses', 'dashboard', 'account', 'devices', 'portal'] as const;

export type CatalogPart = 'first' | 'rest';

export const partOf = (id: string): CatalogPart =>
  (SIGNED_IN_PREFIXES as readonly string[]).includes(id.split('.')[0]) ? 'rest' : 'first';
