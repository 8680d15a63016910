import { EventEmitter2, OnEvent } from '@nestjs/event-emitter';
import type { Transaction } from '../database/transactions';

/**
 * Events between feature modules, so neither imports the other. Awaited: the emitter waits for every listener, a listener's
 * failure is the emitter's, and an unhandled event is an error (a missing module must not silently skip, say, deactivating the
 * devices of a revoked license). Notifications: fire and forget; a failing listener is logged.
 */
export const LICENSE_REVOKED = 'license.revoked';
export const LICENSE_DELETED = 'license.deleted';
export const LICENSE_CHANGED = 'license.changed';
export const DEVICE_DEACTIVATING = 'device.deactivating';
export const VERSION_DELETING = 'version.deleting';
export const VERSION_RENAMED = 'version.renamed';
export const VERSION_STATE_CHANGED = 'version.state-changed';
export const JOB_FAILED = 'job.failed';
export const LICENSE_SERVER_CHANGED = 'license-server.changed';
export const USER_CHANGED = 'user.changed';
export const DEVICES_WRITTEN = 'devices.written';
export const LICENSES_WRITTEN = 'licenses.written';

/** A license was revoked (by an admin, before a delete, or by a portal syncing with this one): its devices lose their seats. */
export interface LicenseRevokedEvent {
  licenseId: number;
}

/** A license was deleted here: it must be revoked on the external license server too. */
export interface LicenseDeletedEvent {
  licenseKey: string;
}

/** A license changed here while an external license server is configured: it waits to be pushed there. */
export interface LicenseChangedEvent {
  licenseId: number;
}

/** A device is about to give its seat back here (owner or admin): the external license server must give it back first. */
export interface DeviceDeactivatingEvent {
  licenseKey: string;
  serverUid: string;
}

/** A version is about to be deleted: what hangs on it (distribution files and their stored bytes) goes first. */
export interface VersionDeletingEvent {
  versionId: number;
}

/** A version's number changed, inside the `transaction` that changes it: copies of it change with it. */
export interface VersionRenamedEvent {
  versionId: number;
  version: string;
  transaction: Transaction;
}

export interface AwaitedEvents {
  /** Result: how many devices were deactivated. */
  [LICENSE_REVOKED]: { payload: LicenseRevokedEvent; result: number };
  /** Result: whether the license is gone on the license server (true when there is none but this portal). */
  [LICENSE_DELETED]: { payload: LicenseDeletedEvent; result: boolean };
  /** A listener that throws stops the deactivation: nothing changes here. */
  [DEVICE_DEACTIVATING]: { payload: DeviceDeactivatingEvent; result: void };
  [VERSION_DELETING]: { payload: VersionDeletingEvent; result: void };
  /** A listener that throws rolls the rename back. Result: what to do once the rename is committed. */
  [VERSION_RENAMED]: { payload: VersionRenamedEvent; result: () => void };
}

/** A scheduled job's run failed: operators must see it in the audit trail. */
export interface JobFailedEvent {
  job: string;
  error: string;
}

/** The license server's URL or token was set, changed or cleared in the settings: what it holds must be brought in step. */
export interface LicenseServerChangedEvent {
  /** The license server now; '' when the portal is its own again. */
  url: string;
}

/** Added, or changed in what the admin users list filters or searches by (verified, e-mail, name): its cached totals count anew. */
export interface UserChangedEvent {
  userId: number;
}

export interface Notifications {
  [LICENSE_CHANGED]: LicenseChangedEvent;
  [JOB_FAILED]: JobFailedEvent;
  [LICENSE_SERVER_CHANGED]: LicenseServerChangedEvent;
  [USER_CHANGED]: UserChangedEvent;
  /** A version was published, yanked or made a draft: what downloads know of its files is read anew. */
  [VERSION_STATE_CHANGED]: { versionId: number };
  /** Devices were added, gave their seats back or changed status here: the admin list and stats count anew. */
  [DEVICES_WRITTEN]: Record<string, never>;
  /** Licenses were added, changed or removed, or seats taken or given back, here: the admin list and stats count anew. */
  [LICENSES_WRITTEN]: Record<string, never>;
}

export type AwaitedEvent = keyof AwaitedEvents;
export type Notification = keyof Notifications;

/** Runs every listener of an awaited event and returns their results; throws what a listener throws, or when none listens. */
export async function emitAwaited<E extends AwaitedEvent>(
  emitter: EventEmitter2,
  event: E,
  payload: AwaitedEvents[E]['payload'],
): Promise<Array<AwaitedEvents[E]['result']>> {
  const results = (await emitter.emitAsync(event, payload)) as Array<AwaitedEvents[E]['result']>;
  if (!results.length) throw new Error(`No listener handled the awaited event ${event}`);
  return results;
}

export function notify<N extends Notification>(emitter: EventEmitter2, event: N, payload: Notifications[N]): void {
  emitter.emit(event, payload);
}

/** Subscribes a provider's method to an awaited event: its result and its failure reach the emitter. */
export function OnAwaitedEvent(event: AwaitedEvent): MethodDecorator {
  return OnEvent(event, { suppressErrors: false });
}

/** Subscribes a provider's method to a notification: a failure is logged, the emitter has moved on. */
export function OnNotification(event: Notification): MethodDecorator {
  return OnEvent(event, { suppressErrors: true });
}
