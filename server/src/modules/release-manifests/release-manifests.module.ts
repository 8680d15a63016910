import { Module } from '@nestjs/common';
import { DistributionFilesModule } from '../distribution-files/distribution-files.module';
import { LicensesModule } from '../licenses/licenses.module';
import { SettingsModule } from '../settings/settings.module';
import { VersionsModule } from '../versions/versions.module';
import { ReleaseManifestsController } from './release-manifests.controller';
import { ReleaseManifestsService } from './release-manifests.service';

/** Signed manifests of published releases; `ReleaseManifestsService.manifestFor` is for the update API too. */
@Module({
  imports: [DistributionFilesModule, LicensesModule, SettingsModule, VersionsModule],
  controllers: [ReleaseManifestsController],
  providers: [ReleaseManifestsService],
  exports: [ReleaseManifestsService],
})
export class ReleaseManifestsModule {}
