import { paths } from '../paths';

/** The page a login should return to: the location the route guard refused (its `state.from`), else the default. */
export function rememberedOrigin(state: unknown, fallback: string): string {
  const from = (state as { from?: { pathname?: string; search?: string; hash?: string } } | null)?.from;
  if (!from?.pathname || from.pathname === paths.login || from.pathname === paths.adminLogin) return fallback;
  return `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`;
}
