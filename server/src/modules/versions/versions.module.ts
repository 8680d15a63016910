import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SettingsModule } from '../settings/settings.module';
import { VersionCatalogService } from './version-catalog.service';
import { VersionEntity } from './version.entity';
import { VersionSyncService } from './version-sync.service';
import { VersionsController } from './versions.controller';
import { VersionsRepository } from './versions.repository';
import { VersionsService } from './versions.service';

@Module({
  imports: [TypeOrmModule.forFeature([VersionEntity]), SettingsModule],
  controllers: [VersionsController],
  providers: [VersionsRepository, VersionsService, VersionCatalogService, VersionSyncService],
  exports: [VersionsService, VersionCatalogService, VersionSyncService],
})
export class VersionsModule {}
