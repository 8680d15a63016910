import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SettingsModule } from '../settings/settings.module';
import { UsersModule } from '../users/users.module';
import { VersionsModule } from '../versions/versions.module';
import { AdminLicensesController } from './admin-licenses.controller';
import { LicenseProductsService } from './license-products.service';
import { LicenseSigningService } from './license-signing.service';
import { LicenseEntity } from './license.entity';
import { LicensesController } from './licenses.controller';
import { LicensesService } from './licenses.service';

@Module({
  imports: [TypeOrmModule.forFeature([LicenseEntity]), SettingsModule, UsersModule, VersionsModule],
  controllers: [LicensesController, AdminLicensesController],
  providers: [LicensesService, LicenseSigningService, LicenseProductsService],
  exports: [LicensesService, LicenseSigningService, LicenseProductsService],
})
export class LicensesModule {}
