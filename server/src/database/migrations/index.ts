import { AccessLogSegments1765100000000 } from './1765100000000-AccessLogSegments';
import { InitialSchema1764000000000 } from './1764000000000-InitialSchema';
import { Licensing1764200000000 } from './1764200000000-Licensing';
import { Distribution1764300000000 } from './1764300000000-Distribution';
import { RemoteLogIndexes1764400000000 } from './1764400000000-RemoteLogIndexes';
import { LicenseServerSync1764500000000 } from './1764500000000-LicenseServerSync';
import { Operations1764600000000 } from './1764600000000-Operations';
import { PasswordReset1764710000000 } from './1764710000000-PasswordReset';
import { AdminMfa1764720000000 } from './1764720000000-AdminMfa';
import { ProfileAndSessions1764730000000 } from './1764730000000-ProfileAndSessions';
import { LicenseServerSyncState1764740000000 } from './1764740000000-LicenseServerSyncState';
import { ListIndexes1764750000000 } from './1764750000000-ListIndexes';
import { UserSearch1764750100000 } from './1764750100000-UserSearch';
import { LogsAtSize1764760000000 } from './1764760000000-LogsAtSize';
import { ClientCatalogOrder1764770000000 } from './1764770000000-ClientCatalogOrder';
import { UserSearchTrigrams1764800000000 } from './1764800000000-UserSearchTrigrams';
import { FileVersionOrder1764900000000 } from './1764900000000-FileVersionOrder';
import { AccessLogSqliteIndexes1765000000000 } from './1765000000000-AccessLogSqliteIndexes';
import { FileArchitectureIndex1765200000000 } from './1765200000000-FileArchitectureIndex';
import { AccountSecurity1765300000000 } from './1765300000000-AccountSecurity';
import { VersionChannels1765500000000 } from './1765500000000-VersionChannels';
import { AccessLogTable1765400000000 } from './1765400000000-AccessLogTable';
import { SigningKeys1765620000000 } from './1765620000000-SigningKeys';
import { ReleaseCoverage1765700000000 } from './1765700000000-ReleaseCoverage';
import { DevicePlatforms1765810000000 } from './1765810000000-DevicePlatforms';
import { StagedRollouts1765800000000 } from './1765800000000-StagedRollouts';
import { DeviceNames1765710000000 } from './1765710000000-DeviceNames';

/** Every migration, in order. Listed explicitly so the same set runs from source (tests) and from dist. */
export const MIGRATIONS = [
  InitialSchema1764000000000,
  Licensing1764200000000,
  Distribution1764300000000,
  RemoteLogIndexes1764400000000,
  LicenseServerSync1764500000000,
  Operations1764600000000,
  PasswordReset1764710000000,
  AdminMfa1764720000000,
  ProfileAndSessions1764730000000,
  LicenseServerSyncState1764740000000,
  ListIndexes1764750000000,
  UserSearch1764750100000,
  LogsAtSize1764760000000,
  ClientCatalogOrder1764770000000,
  UserSearchTrigrams1764800000000,
  FileVersionOrder1764900000000,
  AccessLogSqliteIndexes1765000000000,
  AccessLogSegments1765100000000,
  FileArchitectureIndex1765200000000,
  AccountSecurity1765300000000,
  AccessLogTable1765400000000,
  VersionChannels1765500000000,
  SigningKeys1765620000000,
  ReleaseCoverage1765700000000,
  DeviceNames1765710000000,
  StagedRollouts1765800000000,
  DevicePlatforms1765810000000,
];
