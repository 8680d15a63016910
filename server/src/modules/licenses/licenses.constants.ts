/** What other modules may know of the licenses module's vocabulary, without reaching into its entities. */

export const LICENSE_STATUSES = ['active', 'expired', 'revoked', 'pending'] as const;
export type LicenseStatus = (typeof LICENSE_STATUSES)[number];
