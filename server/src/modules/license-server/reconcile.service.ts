import { Injectable } from '@nestjs/common';
import { LicenseSyncService } from '../licenses/license-sync.service';
import { VersionSyncService } from '../versions/version-sync.service';
import { ReconcileDto, ReconcileReportDto, RepairResultDto, SYNC_BATCH_MAX, SyncChecksumPageDto } from './dto/sync.dto';
import { type Drift } from './license-server-sync.constants';
import { LicenseServerClient, LicenseServerError } from './license-server-client';
import { LicenseServerConnection } from './license-server-connection.service';
import { LicenseServerSyncService } from './license-server-sync.service';
import { DriftKind, DriftRow, SyncDriftRepository } from './sync-drift.repository';
import { SyncPushService } from './sync-push.service';
import { SyncReconcileEntity } from './sync-reconcile.entity';
import { SyncReconcilesRepository } from './sync-reconciles.repository';
import { toReconcileDto } from './sync-views';

type Checksum = { id: number; key: string; checksum: string };

/** Drift rows written per INSERT. */
const DRIFT_FLUSH = 1000;

/**
 * Compares this portal with its license server: every synced version and every license, by key, with a checksum
 * of the fields they exchange. The license server's side is paged in (key → checksum, about 100 bytes a record),
 * this side is paged through and matched against it; what does not match is stored as drift: missing there,
 * missing here, or different. Only the newest reconcile keeps its drift. A repair brings both sides together.
 */
@Injectable()
export class ReconcileService {
  constructor(
    private readonly reconciles: SyncReconcilesRepository,
    private readonly drift: SyncDriftRepository,
    private readonly licenses: LicenseSyncService,
    private readonly versions: VersionSyncService,
    private readonly connection: LicenseServerConnection,
    private readonly push: SyncPushService,
    private readonly sync: LicenseServerSyncService,
  ) {}

  /** An admin's Reconcile: compares both sides now and keeps the drift it finds. */
  async reconcile(): Promise<ReconcileDto> {
    const client = await this.connection.requireClient();
    return toReconcileDto(await this.connection.serially(() => this.connection.guarded(this.run(client))));
  }

  /**
   * Repairs what the newest reconcile found (after reconciling, when there is none yet): licenses and versions
   * missing there or different are pushed as they are here; licenses missing here are taken over, as Sync does.
   * Then both sides are compared again.
   */
  async repair(): Promise<RepairResultDto> {
    const client = await this.connection.requireClient();
    return this.connection.serially(() =>
      this.connection.guarded(
        (async () => {
          let found = await this.latest();
          if (found?.status !== 'completed' || found.target_url !== client.url) found = await this.run(client);
          const result = { pushed_licenses: 0, pushed_versions: 0, pulled_licenses: 0 };
          for await (const numbers of this.keys(found.id, 'version', ['missing_there', 'different'])) {
            const versions = await this.versions.forNumbers(numbers);
            await this.push.pushVersions(client, versions);
            result.pushed_versions += versions.length;
          }
          for await (const keys of this.keys(found.id, 'license', ['missing_there', 'different'])) {
            result.pushed_licenses += await this.push.pushLicenses(client, await this.licenses.forKeys(keys));
          }
          if (found.missing_here) result.pulled_licenses = (await this.sync.pullLicenses(client)).created;
          return { ...result, reconcile: toReconcileDto(await this.run(client)) };
        })(),
      ),
    );
  }

  /** Compares both sides now: the reconcile, completed, with its drift stored (failed, and thrown on, otherwise). */
  private async run(client: LicenseServerClient): Promise<SyncReconcileEntity> {
    const reconcile = await this.reconciles.start(client.url);
    try {
      const found: DriftRow[] = [];
      const flush = async (all = false) => {
        if (found.length && (all || found.length >= DRIFT_FLUSH)) await this.drift.insertMany(found.splice(0));
      };
      const compare = async (kind: DriftKind, remote: string, local: (afterId: number) => Promise<Checksum[]>) => {
        const there = new Map<string, string>();
        for await (const page of client.pages(`/checksums?kind=${remote}`, SyncChecksumPageDto)) {
          for (const item of page) there.set(item.key, item.checksum);
        }
        const counts = { here: 0, there: there.size };
        for (let afterId = 0; ;) {
          const page = await local(afterId);
          for (const item of page) {
            counts.here++;
            const theirs = there.get(item.key);
            if (theirs !== item.checksum) found.push([reconcile.id, kind, item.key, theirs === undefined ? 'missing_there' : 'different']);
            there.delete(item.key);
          }
          await flush();
          if (page.length < SYNC_BATCH_MAX) break;
          afterId = page[page.length - 1].id;
        }
        for (const key of there.keys()) found.push([reconcile.id, kind, key, 'missing_here']);
        await flush(true);
        return counts;
      };
      const versions = await compare('version', 'versions', (after) => this.versions.checksumsAfter(after, SYNC_BATCH_MAX, true));
      const licenses = await compare('license', 'licenses', (after) => this.licenses.checksumsAfter(after, SYNC_BATCH_MAX));
      const tally = async (drift: Drift) => this.drift.count(reconcile.id, drift);
      Object.assign(reconcile, {
        status: 'completed',
        licenses_here: licenses.here,
        licenses_there: licenses.there,
        versions_here: versions.here,
        versions_there: versions.there,
        missing_there: await tally('missing_there'),
        missing_here: await tally('missing_here'),
        different: await tally('different'),
        finished_at: new Date(),
      });
      await this.reconciles.save(reconcile);
      await this.drift.deleteAllBut(reconcile.id);
      return reconcile;
    } catch (error) {
      await this.drift.deleteOf(reconcile.id);
      const message = error instanceof LicenseServerError ? error.message : `Reconcile failed: ${(error as Error).message}`;
      await this.reconciles.fail(reconcile.id, message.slice(0, 500));
      throw error;
    }
  }

  latest(): Promise<SyncReconcileEntity | null> {
    return this.reconciles.latest();
  }

  /** The newest reconcile and one page of its drift, in the order it was found; `total`: its drift rows in all. */
  async report(page: number, limit: number): Promise<{ report: ReconcileReportDto; total: number }> {
    const reconcile = await this.latest();
    if (!reconcile) return { report: { reconcile: null, drift: [] }, total: 0 };
    const [drift, total] = await this.drift.page(reconcile.id, page, limit);
    return {
      report: { reconcile: toReconcileDto(reconcile), drift: drift.map(({ kind, item_key, drift }) => ({ kind, key: item_key, drift })) },
      total,
    };
  }

  /** The keys of one kind that a reconcile found with these drifts, SYNC_BATCH_MAX at a time. */
  private async *keys(reconcileId: number, kind: DriftKind, drifts: Drift[]): AsyncGenerator<string[]> {
    for (let afterId = 0; ;) {
      const rows = await this.drift.after(reconcileId, kind, drifts, afterId, SYNC_BATCH_MAX);
      if (!rows.length) return;
      yield rows.map((row) => row.item_key);
      afterId = rows[rows.length - 1].id;
    }
  }
}
