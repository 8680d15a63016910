import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { SyncRunEntity } from './sync-run.entity';

export type NewSyncRun = Omit<SyncRunEntity, 'id' | 'versions_done' | 'licenses_done' | 'devices_done'>;

/** The sync_runs table: full syncs, each with its phase, cursor and progress. */
@Injectable()
export class SyncRunsRepository {
  constructor(@InjectRepository(SyncRunEntity) private readonly runs: Repository<SyncRunEntity>) {}

  insert(run: NewSyncRun): Promise<SyncRunEntity> {
    return this.runs.save(this.runs.create(run));
  }

  async cancelRunning(now: Date): Promise<void> {
    await this.runs.update({ status: 'running' }, { status: 'cancelled', finished_at: now, updated_at: now });
  }

  latest(): Promise<SyncRunEntity | null> {
    return this.runs.findOne({ where: {}, order: { id: 'DESC' } });
  }

  latestRunning(): Promise<SyncRunEntity | null> {
    return this.runs.findOne({ where: { status: 'running' }, order: { id: 'DESC' } });
  }

  /** Stores the run's progress while it is still in progress; false when it was cancelled meanwhile. */
  async storeProgress(run: SyncRunEntity): Promise<boolean> {
    const { id, ...progress } = run;
    const { affected } = await this.runs.update({ id, status: 'running' }, progress);
    return !!affected;
  }
}
