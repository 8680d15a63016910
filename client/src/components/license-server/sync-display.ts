// What the Versions and Licenses screens show about syncing with the license server.

/** A sync older than this is stale: '(Sync recommended)' and an orange sync button (admin spec sections 4 and 9). */
export const SYNC_STALE_MS = 24 * 3600 * 1000;

/** A dark orange that keeps AA contrast on white and on the light yellow/orange backgrounds (Mantine's orange.9 does not). */
export const WARNING_TEXT = '#a63c06';

/** Missing or older than 24 hours. */
export function syncRecommended(lastSyncAt: string | null | undefined, now = Date.now()): boolean {
  if (!lastSyncAt) return true;
  const at = new Date(lastSyncAt).getTime();
  return Number.isNaN(at) || now - at > SYNC_STALE_MS;
}
