import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { VersionsModule } from '../versions/versions.module';
import { ClientVersionsController } from './client-versions.controller';
import { DistributionFileEntity } from './distribution-file.entity';
import { DistributionFilesController } from './distribution-files.controller';
import { DistributionFilesService } from './distribution-files.service';

@Module({
  imports: [TypeOrmModule.forFeature([DistributionFileEntity]), VersionsModule],
  controllers: [DistributionFilesController, ClientVersionsController],
  providers: [DistributionFilesService],
  exports: [DistributionFilesService],
})
export class DistributionFilesModule {}
