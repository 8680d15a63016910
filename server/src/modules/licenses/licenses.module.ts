import { Module } from '@nestjs/common';
import { ReleaseCoverageService } from './release-coverage.service';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SettingsModule } from '../settings/settings.module';
import { UsersModule } from '../users/users.module';
import { VersionsModule } from '../versions/versions.module';
import { AdminLicensesController } from './admin-licenses.controller';
import { AdminLicensesService } from './admin-licenses.service';
import { LicenseProductsService } from './license-products.service';
import { LicenseSigningService } from './license-signing.service';
import { LicenseSyncService } from './license-sync.service';
import { LicenseEntity } from './license.entity';
import { SigningKeyEntity } from './signing-key.entity';
import { SigningKeysController } from './signing-keys.controller';
import { SigningKeysRepository } from './signing-keys.repository';
import { LicensesController } from './licenses.controller';
import { LicensesRepository } from './licenses.repository';
import { LicensesService } from './licenses.service';

@Module({
  imports: [TypeOrmModule.forFeature([LicenseEntity, SigningKeyEntity]), SettingsModule, UsersModule, VersionsModule],
  controllers: [LicensesController, AdminLicensesController, SigningKeysController],
  providers: [
    ReleaseCoverageService,
    LicensesRepository,
    SigningKeysRepository,
    LicensesService,
    AdminLicensesService,
    LicenseSyncService,
    LicenseSigningService,
    LicenseProductsService,
  ],
  exports: [ReleaseCoverageService, LicensesService, AdminLicensesService, LicenseSyncService, LicenseSigningService, LicenseProductsService],
})
export class LicensesModule {}
