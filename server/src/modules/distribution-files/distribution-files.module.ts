import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LicensesModule } from '../licenses/licenses.module';
import { VersionsModule } from '../versions/versions.module';
import { ClientVersionsController } from './client-versions.controller';
import { ClientVersionsService } from './client-versions.service';
import { DistributionFileEntity } from './distribution-file.entity';
import { DistributionFilesController } from './distribution-files.controller';
import { DistributionFilesRepository } from './distribution-files.repository';
import { DistributionFilesService } from './distribution-files.service';

@Module({
  imports: [TypeOrmModule.forFeature([DistributionFileEntity]), VersionsModule, LicensesModule],
  controllers: [DistributionFilesController, ClientVersionsController],
  providers: [DistributionFilesRepository, DistributionFilesService, ClientVersionsService],
  exports: [DistributionFilesService],
})
export class DistributionFilesModule {}
