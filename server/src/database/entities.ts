import { RecoveryCodeEntity } from '../modules/auth/recovery-code.entity';
import { SessionEntity } from '../modules/auth/session.entity';
import { SpentMfaChallengeEntity } from '../modules/auth/spent-mfa-challenge.entity';
import { UserMfaEntity } from '../modules/auth/user-mfa.entity';
import { DeviceEntity } from '../modules/devices/device.entity';
import { DistributionFileEntity } from '../modules/distribution-files/distribution-file.entity';
import { LicenseEntity } from '../modules/licenses/license.entity';
import { SigningKeyEntity } from '../modules/licenses/signing-key.entity';
import { SyncDriftEntity } from '../modules/license-server/sync-drift.entity';
import { SyncQueueItemEntity } from '../modules/license-server/sync-queue-item.entity';
import { SyncReconcileEntity } from '../modules/license-server/sync-reconcile.entity';
import { SyncRunEntity } from '../modules/license-server/sync-run.entity';
import { ScheduledJobEntity } from '../modules/jobs/scheduled-job.entity';
import { AccessLogEntity } from '../modules/access-log/access-log.entity';
import { AuditLogEntity } from '../modules/logs/audit-log.entity';
import { DailyStatEntity } from '../modules/logs/daily-stat.entity';
import { DownloadLogEntity } from '../modules/logs/download-log.entity';
import { RemoteLogEntity } from '../modules/logs/remote-log.entity';
import { OrderEntity } from '../modules/orders/order.entity';
import { SettingEntity } from '../modules/settings/setting.entity';
import { ReleaseOfferEntity } from '../modules/updates/release-offer.entity';
import { UserEntity } from '../modules/users/user.entity';
import { VersionEntity } from '../modules/versions/version.entity';

export const ENTITIES = [
  UserEntity,
  SessionEntity,
  UserMfaEntity,
  RecoveryCodeEntity,
  SpentMfaChallengeEntity,
  SettingEntity,
  OrderEntity,
  LicenseEntity,
  SigningKeyEntity,
  ReleaseOfferEntity,
  DeviceEntity,
  RemoteLogEntity,
  VersionEntity,
  DistributionFileEntity,
  DownloadLogEntity,
  AuditLogEntity,
  AccessLogEntity,
  DailyStatEntity,
  ScheduledJobEntity,
  SyncRunEntity,
  SyncQueueItemEntity,
  SyncReconcileEntity,
  SyncDriftEntity,
];
