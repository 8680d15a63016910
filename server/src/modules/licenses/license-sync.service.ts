import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { UsersService } from '../users/users.service';
import { effectiveStatus } from './license-status';
import { LicenseEntity } from './license.entity';
import { LicensesRepository } from './licenses.repository';
import { LicensesService } from './licenses.service';
import { yieldToEventLoop } from '../../common/yield-to-event-loop';

/** A license as portals exchange it when syncing with a license server. */
export type SyncedLicense = Pick<
  LicenseEntity,
  'license_key' | 'product_name' | 'user_email' | 'status' | 'expires_at' | 'max_activations' | 'is_trial'
>;

/** A license as a license server holds it, seats included. */
export type SyncedLicenseState = SyncedLicense & Pick<LicenseEntity, 'id' | 'current_activations'>;

const SYNCED_FIELDS = ['product_name', 'user_email', 'status', 'max_activations', 'is_trial'] as const;

/** Both as the portal that syncs with a license server and as the license server another portal syncs with. */
@Injectable()
export class LicenseSyncService {
  constructor(
    private readonly licenses: LicensesRepository,
    private readonly core: LicensesService,
    private readonly users: UsersService,
  ) {}

  /** Licenses changed here that the external license server has not confirmed yet, oldest first. */
  pendingForServer(limit: number): Promise<LicenseEntity[]> {
    return this.licenses.pendingSync(limit);
  }

  /** Confirms pushed licenses as synced, each only if it still holds what was pushed (a newer change stays pending). */
  async markSynced(pushed: SyncedLicense[], at: Date): Promise<void> {
    for (const [i, license] of pushed.entries()) {
      await this.licenses.markSyncedWhere(toSyncedLicense(license), at);
      await yieldToEventLoop(i);
    }
  }

  /** Every license, `limit` at a time after `afterId`, by id (a full sync pushes them all, whatever their sync stamp). */
  batchAfter(afterId: number, limit: number): Promise<LicenseEntity[]> {
    return this.licenses.listAfter(afterId, limit);
  }

  countAll(): Promise<number> {
    return this.licenses.count();
  }

  countPending(): Promise<number> {
    return this.licenses.countPendingSync();
  }

  async forKeys(keys: string[]): Promise<LicenseEntity[]> {
    return keys.length ? this.licenses.findByKeys(keys) : [];
  }

  /** Key and checksum of each license after `afterId`, by id: what a reconcile compares on both sides. */
  async checksumsAfter(afterId: number, limit: number): Promise<Array<{ id: number; key: string; checksum: string }>> {
    const rows = await this.licenses.listAfter(afterId, limit);
    return rows.map((license) => ({ id: license.id, key: license.license_key, checksum: licenseChecksum(license) }));
  }

  /** While the portal is its own license server, every pending license is live here: they are confirmed now. */
  confirmAllPending(at: Date): Promise<number> {
    return this.licenses.confirmAllPending(at);
  }

  /** Known keys follow the server (status, expiry, seats), except those changed here and not pushed yet. */
  async applyFromServer(states: SyncedLicenseState[], at: Date): Promise<{ created: number; updated: number }> {
    if (!states.length) return { created: 0, updated: 0 };
    const known = await this.byKeys(states);
    let created = 0;
    let updated = 0;
    for (const [i, state] of states.entries()) {
      await yieldToEventLoop(i);
      const local = known.get(state.license_key);
      if (!local) {
        await this.insertSynced(state, state.current_activations, at);
        created++;
        continue;
      }
      if (local.synced_at === null) continue;
      const changes: Partial<LicenseEntity> = { synced_at: at };
      for (const field of SYNCED_FIELDS) if (local[field] !== state[field]) Object.assign(changes, { [field]: state[field] });
      if (local.expires_at.getTime() !== state.expires_at.getTime()) changes.expires_at = state.expires_at;
      if (local.current_activations !== state.current_activations) changes.current_activations = state.current_activations;
      if (changes.user_email !== undefined) changes.user_id = (await this.users.findByEmail(changes.user_email))?.id ?? null;
      if (Object.keys(changes).length > 1) updated++;
      await this.licenses.updateIfSynced(local.id, changes);
    }
    this.core.written();
    return { created, updated };
  }

  /** Created or updated by key; a revoked one loses its devices here. */
  async upsertFromPortal(items: SyncedLicense[]): Promise<{ created: number; updated: number; licenses: SyncedLicenseState[] }> {
    const at = new Date();
    let created = 0;
    let updated = 0;
    const known = await this.byKeys(items);
    // A key pushed twice in one batch counts once, as last pushed.
    for (const [i, item] of [...new Map(items.map((pushed) => [pushed.license_key, pushed])).values()].entries()) {
      await yieldToEventLoop(i);
      const local = known.get(item.license_key);
      if (!local) {
        await this.insertSynced(item, 0, at);
        created++;
        continue;
      }
      const changed =
        SYNCED_FIELDS.some((field) => local[field] !== item[field]) || local.expires_at.getTime() !== item.expires_at.getTime();
      if (!changed) continue;
      const changes: Partial<LicenseEntity> = { ...toSyncedLicense(item), synced_at: at };
      if (item.user_email !== local.user_email) changes.user_id = (await this.users.findByEmail(item.user_email))?.id ?? null;
      await this.licenses.update(local.id, changes);
      if (item.status === 'revoked' && local.status !== 'revoked') await this.core.deactivateDevices(local.id);
      updated++;
    }
    if (created || updated) this.core.written();
    const stored = await this.byKeys(items);
    return { created, updated, licenses: [...stored.values()].map(toSyncedState) };
  }

  /** This server's licenses after `afterId`, by id (for a portal that syncs from this one). */
  async listForSync(afterId: number, limit: number): Promise<SyncedLicenseState[]> {
    return (await this.licenses.listAfter(afterId, limit)).map(toSyncedState);
  }

  /** Revokes a license by key for a portal that deleted it; `found` is false when this server never had it. */
  async revokeByKey(key: string): Promise<{ found: boolean; deactivated: number }> {
    const license = await this.core.findByKey(key);
    if (!license) return { found: false, deactivated: 0 };
    await this.licenses.update(license.id, { status: 'revoked', synced_at: new Date() });
    this.core.written();
    return { found: true, deactivated: await this.core.deactivateDevices(license.id) };
  }

  private async byKeys(items: Array<{ license_key: string }>): Promise<Map<string, LicenseEntity>> {
    const rows = await this.licenses.findByKeys(items.map((item) => item.license_key));
    return new Map(rows.map((row) => [row.license_key, row]));
  }

  /** A license that came by sync, linked to the account with its e-mail (if there is one). */
  private async insertSynced(license: SyncedLicense, seats: number, at: Date): Promise<void> {
    const owner = await this.users.findByEmail(license.user_email);
    await this.licenses.insert({ ...toSyncedLicense(license), current_activations: seats, user_id: owner?.id ?? null, synced_at: at });
  }
}

/** Just the fields portals exchange about a license. */
export function toSyncedLicense(license: SyncedLicense): SyncedLicense {
  const { license_key, product_name, user_email, status, expires_at, max_activations, is_trial } = license;
  return { license_key, product_name, user_email, status, expires_at, max_activations, is_trial };
}

/**
 * Over the exchanged fields in a fixed order, with the status as of now (an expired one reads as expired on either side). Seats
 * are left out: the license server counts them and the portal takes them over.
 */
export function licenseChecksum(license: LicenseEntity): string {
  const fields = [
    license.license_key,
    license.product_name,
    license.user_email,
    effectiveStatus(license),
    license.expires_at.toISOString(),
    license.max_activations,
    license.is_trial,
  ];
  return createHash('sha256').update(JSON.stringify(fields)).digest('base64url').slice(0, 22);
}

function toSyncedState(license: LicenseEntity): SyncedLicenseState {
  return Object.assign(toSyncedLicense(license), {
    status: effectiveStatus(license),
    id: license.id,
    current_activations: license.current_activations,
  });
}
