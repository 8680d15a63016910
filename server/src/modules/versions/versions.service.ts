import { Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { randomUUID } from 'node:crypto';
import { ApiError } from '../../common/api-error';
import type { AuthUser } from '../../common/current-user.decorator';
import { emitAwaited, notify, VERSION_DELETING, VERSION_RENAMED, VERSION_STATE_CHANGED } from '../../common/events';
import { ListTotals } from '../../common/list-totals';
import type { Page } from '../../common/pagination';
import { Transactions } from '../../database/transactions';
import { SettingsService } from '../settings/settings.service';
import { FileStorage } from '../storage/file-storage';
import { fileNameProblem } from '../storage/file-names';
import type { StoredUpload } from '../storage/upload.interceptor';
import { ListVersionsQueryDto } from './dto/list-versions-query.dto';
import { UpdateVersionDto, UploadVersionDto, VersionFlag } from './dto/version-form.dto';
import { VersionCatalogService } from './version-catalog.service';
import { VersionEntity } from './version.entity';
import { VersionsRepository } from './versions.repository';
import type { Channel, VersionState } from './versions.constants';
import { versionOrder } from './version-order';
import type { Rollout } from './rollout';

export type { VersionEntity } from './version.entity';
export type { VersionChoice } from './versions.repository';

export type VersionPage = Page<VersionEntity> & { overallTotal: number; lastSyncAt: Date | null };

export const LATEST_REQUIRED = 'A version must stay the latest: mark another version as latest instead.';
export const LATEST_PUBLISHED = 'Only a published version can be the latest.';

/**
 * Version Management: upload, edit, flags, delete, the list, and what the versions' files take in storage. A version
 * must stay the latest: marking another one hands the flag over, and deleting the latest hands it to the newest
 * remaining one (see VersionsRepository for why no interleaving leaves two).
 */
@Injectable()
export class VersionsService {
  /**
   * The admin list's totals by search ('' for every version): every write they see goes through this module
   * (`changed` clears them), so they are cached briefly (another instance's writes show within 5 s) instead of
   * counted on every page.
   */
  private readonly totals = new ListTotals(60_000, 64, 5_000);

  constructor(
    private readonly versions: VersionsRepository,
    private readonly catalog: VersionCatalogService,
    private readonly transactions: Transactions,
    private readonly storage: FileStorage,
    private readonly settings: SettingsService,
    private readonly events: EventEmitter2,
  ) {}

  storageUsage(): Promise<{ files: number; bytes: number }> {
    return this.versions.storageUsage();
  }

  async list(query: ListVersionsQueryDto): Promise<VersionPage> {
    const search = query.search?.trim() ?? '';
    const [found, overallTotal, sync] = await Promise.all([
      this.versions.page(query, this.totals),
      // Without a search or filter the page's total is the overall one: no second count.
      search || query.channel || query.state ? this.versions.total(this.totals) : undefined,
      this.settings.shownSyncState(),
    ]);
    // The time of the last sync run, not of the most recently synced row: editing a version makes it pending,
    // it does not undo the sync.
    const lastSyncAt = sync.versions_synced_at ? new Date(sync.versions_synced_at) : null;
    return { ...found, overallTotal: overallTotal ?? found.total, lastSyncAt };
  }

  findByIds(ids: number[]): Promise<VersionEntity[]> {
    return this.versions.findByIds(ids);
  }

  async get(id: number): Promise<VersionEntity> {
    return ApiError.orNotFound(await this.versions.findById(id), 'Version not found');
  }

  /** Upload Version: the row, its optional file (committed from temporary storage), and the latest flag. */
  async create(dto: UploadVersionDto, upload: StoredUpload | undefined, actor: AuthUser): Promise<VersionEntity> {
    try {
      if (await this.versions.existsNumber(dto.version)) throw duplicateVersion(dto.version);
      let storageKey: string | null = null;
      if (upload) {
        const problem = fileNameProblem(upload.originalname);
        if (problem) throw ApiError.badRequest(problem, { file: [problem] });
        if (upload.size === 0) throw ApiError.badRequest('Please select a file.', { file: ['Please select a file.'] });
        storageKey = `versions/${randomUUID()}${upload.extension}`;
        await this.storage.commit(upload, storageKey);
      }
      const channel = dto.channel ?? (dto.is_stable === false ? 'beta' : 'stable');
      const state = dto.state ?? 'published';
      if (dto.is_latest && state !== 'published') throw latestNotPublished();
      let id: number | null = null;
      try {
        id = await this.versions.insert({
          version: dto.version,
          release_date: dto.release_date,
          changelog: dto.changelog ?? null,
          download_url: dto.download_url ?? null,
          file_name: upload ? upload.originalname : null,
          storage_key: storageKey,
          file_size: upload ? upload.size : null,
          file_hash: upload ? upload.sha256 : null,
          secret_hash: dto.secret_hash ?? null,
          encryption_key: dto.encryption_key ?? null,
          min_system_requirements: dto.min_system_requirements ?? null,
          ...releaseFields(dto.version, channel),
          ...stateFields(state, null, new Date()),
          state,
          is_latest: false,
          license_server_sync: dto.sync_to_license_server ?? true,
          created_by: actor.id,
        });
      } finally {
        // Not stored (an error, or the number taken meanwhile): the committed file goes too.
        if (id === null && storageKey) await this.storage.remove(storageKey);
      }
      if (id === null) throw duplicateVersion(dto.version);
      if (dto.is_latest) await this.versions.makeLatest(id);
      else await this.versions.ensureLatest();
      return this.get(id);
    } finally {
      this.changed();
    }
  }

  async update(id: number, dto: UpdateVersionDto): Promise<VersionEntity> {
    try {
      const version = await this.get(id);
      if (dto.version !== undefined && dto.version !== version.version && (await this.versions.existsNumber(dto.version)))
        throw duplicateVersion(dto.version);
      if (dto.is_latest === false && version.is_latest) throw ApiError.conflict(LATEST_REQUIRED, { is_latest: [LATEST_REQUIRED] });

      const changes: Partial<VersionEntity> = {};
      const assign = <K extends keyof VersionEntity>(key: K, value: VersionEntity[K] | undefined) => {
        if (value !== undefined && value !== version[key]) changes[key] = value;
      };
      assign('version', dto.version);
      assign('release_date', dto.release_date);
      assign('changelog', dto.changelog);
      assign('download_url', dto.download_url);
      assign('secret_hash', dto.secret_hash);
      assign('encryption_key', dto.encryption_key);
      assign('min_system_requirements', dto.min_system_requirements);
      // is_stable is the specification's Stable/Beta toggle over the channel: Beta keeps a channel that is not stable.
      const channel =
        dto.channel ??
        (dto.is_stable === undefined ? undefined : dto.is_stable ? 'stable' : version.channel === 'stable' ? 'beta' : version.channel);
      if (channel !== undefined && channel !== version.channel)
        Object.assign(changes, releaseFields(dto.version ?? version.version, channel));
      if (dto.version !== undefined && dto.version !== version.version) changes.version_order = versionOrder(dto.version);
      if (dto.state !== undefined && dto.state !== version.state)
        Object.assign(changes, { state: dto.state }, stateFields(dto.state, version.published_at, new Date()));
      assign('license_server_sync', dto.license_server_sync ?? dto.sync_to_license_server);
      const becomesLatest = dto.is_latest === true && !version.is_latest;
      const state = changes.state ?? version.state;
      if (dto.is_latest === true && state !== 'published') throw latestNotPublished();
      // What the license server holds no longer matches: the version is pending until the next sync.
      if (Object.keys(changes).length || becomesLatest) changes.last_sync_at = null;
      if (Object.keys(changes).length) {
        const duplicate = () => duplicateVersion(dto.version ?? version.version);
        const renamed = changes.version;
        if (renamed === undefined) {
          if (!(await this.versions.update(id, changes))) throw duplicate();
        } else {
          // Copies of the number change in the same transaction; what their owners do after it, once it is committed.
          const afterCommit = await this.transactions.run(async (transaction) => {
            if (!(await this.versions.update(id, changes, transaction))) throw duplicate();
            return emitAwaited(this.events, VERSION_RENAMED, { versionId: id, version: renamed, transaction });
          });
          for (const run of afterCommit) run();
        }
      }
      if (becomesLatest) await this.versions.makeLatest(id);
      // The latest taken back to a draft or yanked: the newest published release takes over.
      else if (version.is_latest && state !== 'published') await this.versions.handOverLatest(id);
      else if (changes.state === 'published') await this.versions.ensureLatest();
      if (changes.state) notify(this.events, VERSION_STATE_CHANGED, { versionId: id });
      return this.get(id);
    } finally {
      this.changed();
    }
  }

  /**
   * The release's staged rollout: the share of servers the update API offers it to, and whether that is paused.
   * Local to this portal (the license server's copy is unchanged, so the version's sync state is too).
   */
  async setRollout(id: number, rollout: Partial<Rollout>): Promise<VersionEntity> {
    const version = await this.get(id);
    const changes = { rollout_percent: rollout.rollout_percent ?? version.rollout_percent, rollout_paused: rollout.rollout_paused ?? version.rollout_paused };
    try {
      await this.versions.update(id, changes);
    } finally {
      this.changed();
    }
    return Object.assign(version, changes);
  }

  /** Flips Stable/Beta or Latest/Older. Un-marking the latest version is refused (409): mark another one instead. */
  async toggle(id: number, flag: VersionFlag): Promise<VersionEntity> {
    const version = await this.get(id);
    return this.update(id, flag === 'is_latest' ? { is_latest: !version.is_latest } : { is_stable: !version.is_stable });
  }

  /** Deletes the version, its distribution files (rows and stored bytes) and its own file; the latest flag moves on. */
  async remove(id: number): Promise<void> {
    try {
      const version = await this.get(id);
      // What hangs on the version (distribution files and their bytes) goes first; a failure there keeps the version.
      await emitAwaited(this.events, VERSION_DELETING, { versionId: id });
      // The flag moves to the newest other version before this one goes, so there is never a moment without a latest.
      if (version.is_latest) await this.versions.handOverLatest(id);
      if (!(await this.versions.delete(id))) throw ApiError.notFound('Version not found');
      if (version.storage_key) await this.storage.remove(version.storage_key);
      await this.versions.ensureLatest();
    } finally {
      this.changed();
    }
  }

  /** A version was written here or by a sync (or a write failed part way): the lists and the catalog are read anew. */
  changed(): void {
    this.totals.clear();
    this.catalog.changed();
  }
}

/** The columns that follow from a version's number and channel: its sort key and the Stable/Beta flag. */
export function releaseFields(version: string, channel: Channel): Pick<VersionEntity, 'channel' | 'is_stable' | 'version_order'> {
  return { channel, is_stable: channel === 'stable', version_order: versionOrder(version) };
}

const latestNotPublished = () => ApiError.badRequest(LATEST_PUBLISHED, { is_latest: [LATEST_PUBLISHED] });

/** The times a state sets: published_at when first published (kept after), yanked_at while yanked. */
function stateFields(state: VersionState, publishedAt: Date | null, now: Date): Pick<VersionEntity, 'published_at' | 'yanked_at'> {
  return { published_at: state === 'draft' ? publishedAt : (publishedAt ?? now), yanked_at: state === 'yanked' ? now : null };
}

function duplicateVersion(version: string): ApiError {
  const message = `Version ${version} already exists`;
  return ApiError.conflict(message, { version: [message] });
}
