const DAY_MS = 24 * 3600 * 1000;

/** An active license whose expiry is still ahead but no more than `days` away; each screen warns with its own window. */
export function expiresSoon(license: { status: string; expires_at: string }, days: number, now = Date.now()): boolean {
  if (license.status !== 'active') return false;
  const left = new Date(license.expires_at).getTime() - now;
  return left > 0 && left <= days * DAY_MS;
}
