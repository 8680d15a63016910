import { pick } from '../../common/pick';
import { FullSyncDto, ReconcileDto, SyncQueueItemDto } from './dto/sync.dto';
import { SyncQueueItemEntity } from './sync-queue-item.entity';
import { SyncReconcileEntity } from './sync-reconcile.entity';
import { SyncRunEntity } from './sync-run.entity';

/** How the sync's records show in its status and actions. */
export function toFullSyncDto(run: SyncRunEntity): FullSyncDto {
  return {
    ...pick(run, ['id', 'target_url', 'reason', 'status', 'phase']),
    versions: { done: run.versions_done, total: run.versions_total },
    licenses: { done: run.licenses_done, total: run.licenses_total },
    devices: { done: run.devices_done, total: run.devices_total },
    ...pick(run, ['attempts', 'last_error', 'next_attempt_at', 'started_at', 'updated_at', 'finished_at']),
  };
}

export function toQueueItemDto(item: SyncQueueItemEntity): SyncQueueItemDto {
  const { kind, item_key, attempts, last_error, next_attempt_at, created_at, last_attempt_at } = item;
  return { kind, key: item_key, attempts, last_error, next_attempt_at, created_at, last_attempt_at };
}

export function toReconcileDto(reconcile: SyncReconcileEntity): ReconcileDto {
  return {
    ...pick(reconcile, ['id', 'target_url', 'status', 'error']),
    licenses: { here: reconcile.licenses_here, there: reconcile.licenses_there },
    versions: { here: reconcile.versions_here, there: reconcile.versions_there },
    ...pick(reconcile, ['missing_there', 'missing_here', 'different', 'started_at', 'finished_at']),
  };
}
