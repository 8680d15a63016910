/** The phases of a full sync, in order. */
export const SYNC_PHASES = ['versions', 'licenses', 'devices', 'done'] as const;
export type SyncPhase = (typeof SYNC_PHASES)[number];

/** What the retry queue holds: a license or version to push (as it is when delivered), or a revocation. */
export const SYNC_QUEUE_KINDS = ['license', 'version', 'revocation'] as const;
export type SyncQueueKind = (typeof SYNC_QUEUE_KINDS)[number];

/** How a record can be out of step with the license server. */
export const DRIFTS = ['missing_there', 'missing_here', 'different'] as const;
export type Drift = (typeof DRIFTS)[number];
