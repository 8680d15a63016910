import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DevicesModule } from '../devices/devices.module';
import { LicensesModule } from '../licenses/licenses.module';
import { LogsModule } from '../logs/logs.module';
import { SettingsModule } from '../settings/settings.module';
import { VersionsModule } from '../versions/versions.module';
import { ActivationFastPath } from './activation-fast-path';
import { ActivationThrottle } from './activation-throttle';
import { FullSyncService } from './full-sync.service';
import { ReconcileService } from './reconcile.service';
import { SyncDriftEntity } from './sync-drift.entity';
import { SyncPushService } from './sync-push.service';
import { SyncQueueItemEntity } from './sync-queue-item.entity';
import { SyncQueueService } from './sync-queue.service';
import { SyncReconcileEntity } from './sync-reconcile.entity';
import { SyncRunEntity } from './sync-run.entity';
import { AdminSyncController } from './admin-sync.controller';
import { LicenseServerSyncService } from './license-server-sync.service';
import { LicenseServerController } from './license-server.controller';
import { LicenseServerService } from './license-server.service';
import { SyncApiController } from './sync-api.controller';
import { SyncTokenGuard } from './sync-token.guard';
import { TestScriptArchive } from './test-script-archive';
import { LicenseServerConnection } from './license-server-connection.service';
import { SyncWorkerService } from './sync-worker.service';
import { SyncStatusService } from './sync-status.service';
import { SyncRunsRepository } from './sync-runs.repository';
import { SyncQueueRepository } from './sync-queue.repository';
import { SyncReconcilesRepository } from './sync-reconciles.repository';
import { SyncDriftRepository } from './sync-drift.repository';

@Module({
  imports: [
    TypeOrmModule.forFeature([SyncRunEntity, SyncQueueItemEntity, SyncReconcileEntity, SyncDriftEntity]),
    LicensesModule,
    DevicesModule,
    LogsModule,
    SettingsModule,
    VersionsModule,
  ],
  controllers: [LicenseServerController, SyncApiController, AdminSyncController],
  providers: [
    LicenseServerService,
    ActivationFastPath,
    ActivationThrottle,
    TestScriptArchive,
    LicenseServerConnection,
    LicenseServerSyncService,
    SyncWorkerService,
    SyncStatusService,
    SyncPushService,
    SyncQueueService,
    FullSyncService,
    ReconcileService,
    SyncTokenGuard,
    SyncRunsRepository,
    SyncQueueRepository,
    SyncReconcilesRepository,
    SyncDriftRepository,
  ],
  /** System Health shows how the sync stands; the update API takes the activation API's credential. */
  exports: [SyncStatusService, LicenseServerService],
})
export class LicenseServerModule {}
