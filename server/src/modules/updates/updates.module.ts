import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DevicesModule } from '../devices/devices.module';
import { VersionsModule } from '../versions/versions.module';
import { ReleaseOfferEntity } from './release-offer.entity';
import { ReleaseOffersRepository } from './release-offers.repository';
import { RolloutsController } from './rollouts.controller';
import { RolloutsService } from './rollouts.service';
import { DistributionFilesModule } from '../distribution-files/distribution-files.module';
import { DownloadsModule } from '../downloads/downloads.module';
import { LicenseServerModule } from '../license-server/license-server.module';
import { LicensesModule } from '../licenses/licenses.module';
import { ReleaseManifestsModule } from '../release-manifests/release-manifests.module';
import { LicenseKeyGuard } from './license-key.guard';
import { UpdatesController } from './updates.controller';
import { UpdatesService } from './updates.service';

/** The update API for streaming servers (GET /api/releases/upgrade, /api/releases/latest/{os}/{arch}) and staged rollouts. */
@Module({
  imports: [
    TypeOrmModule.forFeature([ReleaseOfferEntity]),
    DevicesModule,
    DistributionFilesModule,
    DownloadsModule,
    LicenseServerModule,
    LicensesModule,
    ReleaseManifestsModule,
    VersionsModule,
  ],
  controllers: [UpdatesController, RolloutsController],
  providers: [UpdatesService, RolloutsService, ReleaseOffersRepository, LicenseKeyGuard],
})
export class UpdatesModule {}
