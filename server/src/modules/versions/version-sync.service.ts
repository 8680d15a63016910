import { Injectable } from '@nestjs/common';
import { pick } from '../../common/pick';
import { createHash } from 'node:crypto';
import { VersionEntity } from './version.entity';
import { VersionsRepository } from './versions.repository';
import { releaseFields, VersionsService } from './versions.service';

export type { VersionEntity } from './version.entity';

/** What portals exchange about a version when syncing with a license server (never the stored file or its key). */
const SYNCED_VERSION_FIELDS = [
  'version',
  'release_date',
  'changelog',
  'download_url',
  'file_name',
  'file_size',
  'file_hash',
  'secret_hash',
  'encryption_key',
  'min_system_requirements',
  'is_stable',
  'is_latest',
] as const;

export type SyncedVersion = Pick<VersionEntity, (typeof SYNCED_VERSION_FIELDS)[number]>;

export function toSyncedVersion(version: SyncedVersion): SyncedVersion {
  return pick(version, SYNCED_VERSION_FIELDS);
}

/** What a version is, as both portals see it: SHA-256 (first 128 bits, base64url) over the fields they exchange. */
export function versionChecksum(version: SyncedVersion): string {
  const fields = SYNCED_VERSION_FIELDS.map((field) => version[field]);
  return createHash('sha256').update(JSON.stringify(fields)).digest('base64url').slice(0, 22);
}

/**
 * Versions as the license-server sync sees them: what this portal pushes to its license server (and records as
 * synced), what a reconcile compares, and what a portal that uses this one as its license server pushes here.
 */
@Injectable()
export class VersionSyncService {
  constructor(
    private readonly versions: VersionsRepository,
    private readonly admin: VersionsService,
  ) {}

  /** The version of this id (404 for an id that names none). */
  get(id: number): Promise<VersionEntity> {
    return this.admin.get(id);
  }

  /** Versions to push to the license server: the given ones, or every version marked for syncing. */
  forSync(ids?: number[]): Promise<VersionEntity[]> {
    return ids ? this.versions.findByIds(ids) : this.versions.markedForSync();
  }

  /** Versions marked for syncing after `afterId`, by id, `limit` at a time (a full sync). */
  forSyncAfter(afterId: number, limit: number): Promise<VersionEntity[]> {
    return this.versions.after(afterId, limit, true);
  }

  countForSync(): Promise<number> {
    return this.versions.countMarkedForSync();
  }

  forNumbers(numbers: string[]): Promise<VersionEntity[]> {
    return this.versions.findByNumbers(numbers);
  }

  /**
   * Number and checksum of each version after `afterId`, by id: what a reconcile compares. The portal that syncs
   * compares the versions it pushes (`onlyMarked`); a license server, every version it holds.
   */
  async checksumsAfter(afterId: number, limit: number, onlyMarked: boolean): Promise<Array<{ id: number; key: string; checksum: string }>> {
    const rows = await this.versions.after(afterId, limit, onlyMarked);
    return rows.map((version) => ({ id: version.id, key: version.version, checksum: versionChecksum(version) }));
  }

  /** Records a successful push to the license server (for the sync client). */
  markSynced(ids: number[], at = new Date()): Promise<void> {
    return this.versions.markSynced(ids, at);
  }

  /**
   * Versions pushed by a portal that uses this one as its license server: matched by version number, created
   * (without a stored file here) or updated; a pushed latest version becomes the latest. Counts new and changed ones.
   */
  async upsertFromPortal(items: SyncedVersion[]): Promise<{ created: number; updated: number }> {
    try {
      const now = new Date();
      const existing = new Map((await this.versions.findByNumbers(items.map((item) => item.version))).map((v) => [v.version, v]));
      let created = 0;
      let updated = 0;
      let latestId: number | null = null;
      for (const { is_latest, ...fields } of items) {
        const found = existing.get(fields.version);
        let id: number;
        if (!found) {
          id = await this.versions.insertSynced(
            { ...fields, ...releaseFields(fields.version, fields.is_stable ? 'stable' : 'beta'), published_at: now },
            now,
          );
          created++;
        } else {
          id = found.id;
          const changed = (Object.keys(fields) as Array<keyof typeof fields>).some((key) => fields[key] !== found[key]);
          if (changed || is_latest !== found.is_latest) updated++;
          // The wire carries Stable/Beta only: a channel changes only when that flag does.
          const channel = fields.is_stable === found.is_stable ? found.channel : fields.is_stable ? 'stable' : 'beta';
          await this.versions.updateSynced(id, { ...fields, ...releaseFields(fields.version, channel) }, now);
        }
        if (is_latest) latestId = id;
      }
      if (latestId !== null) await this.versions.makeLatest(latestId);
      await this.versions.ensureLatest();
      return { created, updated };
    } finally {
      // The admin's lists and the client catalog show what was pushed.
      this.admin.changed();
    }
  }
}
