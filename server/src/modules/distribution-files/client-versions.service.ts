import { Injectable } from '@nestjs/common';
import type { Page, PageRequest } from '../../common/pagination';
import { VersionCatalogService } from '../versions/version-catalog.service';
import type { VersionEntity } from '../versions/versions.service';
import { DistributionFileEntity } from './distribution-file.entity';
import { DistributionFilesService } from './distribution-files.service';

/** A version of the client catalog with its distribution files. */
export interface CatalogVersion {
  version: VersionEntity;
  files: DistributionFileEntity[];
}

/** The client dashboard's Available Downloads: a page of the version catalog, each version with its files. */
@Injectable()
export class ClientVersionsService {
  constructor(
    private readonly catalog: VersionCatalogService,
    private readonly files: DistributionFilesService,
  ) {}

  /** One page of versions in the catalog's order (latest first, then newest release), with their files. */
  async page(request: Pick<PageRequest, 'page' | 'limit'>, defaultLimit: number): Promise<Page<CatalogVersion>> {
    const { rows, ...where } = await this.catalog.clientPage(request, defaultLimit);
    const byVersion = new Map<number, DistributionFileEntity[]>();
    for (const file of await this.files.forVersions(rows.map((version) => version.id))) {
      const files = byVersion.get(file.version_id);
      if (files) files.push(file);
      else byVersion.set(file.version_id, [file]);
    }
    return { ...where, rows: rows.map((version) => ({ version, files: byVersion.get(version.id) ?? [] })) };
  }
}
