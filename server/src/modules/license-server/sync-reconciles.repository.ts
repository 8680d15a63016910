import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { SyncReconcileEntity } from './sync-reconcile.entity';

/** The sync_reconciles table: comparisons with the license server and their counts. */
@Injectable()
export class SyncReconcilesRepository {
  constructor(@InjectRepository(SyncReconcileEntity) private readonly reconciles: Repository<SyncReconcileEntity>) {}

  /** A new reconcile towards `url`, running from now. */
  start(url: string): Promise<SyncReconcileEntity> {
    const reconcile = { target_url: url, status: 'running' as const, error: null, started_at: new Date(), finished_at: null };
    return this.reconciles.save(this.reconciles.create(reconcile));
  }

  save(reconcile: SyncReconcileEntity): Promise<SyncReconcileEntity> {
    return this.reconciles.save(reconcile);
  }

  async fail(id: number, error: string): Promise<void> {
    await this.reconciles.update({ id }, { status: 'failed', error, finished_at: new Date() });
  }

  latest(): Promise<SyncReconcileEntity | null> {
    return this.reconciles.findOne({ where: {}, order: { id: 'DESC' } });
  }
}
