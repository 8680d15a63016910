import { Injectable } from '@nestjs/common';
import { ApiError } from '../../common/api-error';
import { SettingsService } from '../settings/settings.service';
import { VersionCatalogService } from '../versions/version-catalog.service';
import { AvailableVersionDto, AvailableVersionsDto } from './dto/license.dto';
import { ADMIN_PRODUCT_TIERS } from './admin-licenses.service';

/** How many of the newest products a refused product's message names. */
const PRODUCTS_NAMED_IN_REFUSAL = 10;

/** Until the first version is published there is no product to license. */
export const NO_RELEASE_YET = 'No release is available yet: a license can be requested once the first version is published.';

/**
 * Which products a license may be for: the admin tiers "{app_info.name} Pro|Enterprise|Basic", and
 * "{app_info.name} v{version}" for the versions clients see (read through VersionCatalogService).
 *
 * A client's product must name an existing version; before the first one there is nothing to license.
 */
@Injectable()
export class LicenseProductsService {
  constructor(
    private readonly settings: SettingsService,
    private readonly versionsService: VersionCatalogService,
  ) {}

  async availableVersions(): Promise<AvailableVersionsDto> {
    const { name } = await this.settings.get('app_info');
    return { products: ADMIN_PRODUCT_TIERS.map((tier) => `${name} ${tier}`), versions: await this.versions(name) };
  }

  /**
   * The product choices of a client's test and purchase dialogs: "{app} v{version}" per version, latest first (names
   * only: thousands of versions stay a small response); none before the first version.
   */
  async clientProducts(): Promise<string[]> {
    const { name } = await this.settings.get('app_info');
    return (await this.versionsService.numbers()).map((number) => `${name} v${number}`);
  }

  /**
   * A client's product must be "{app_info.name} v{version}" of an existing version (400 otherwise; 409 before the
   * first version): one index seek, whatever the number of versions. The refusal names the newest few choices.
   */
  async assertClientProduct(productName: string): Promise<void> {
    const { name } = await this.settings.get('app_info');
    const prefix = `${name} v`;
    if (productName.startsWith(prefix) && (await this.versionsService.hasNumber(productName.slice(prefix.length)))) return;
    const newest = await this.versionsService.numbers(PRODUCTS_NAMED_IN_REFUSAL + 1);
    if (!newest.length) throw ApiError.conflict(NO_RELEASE_YET);
    const named = newest.slice(0, PRODUCTS_NAMED_IN_REFUSAL).map((number) => `${name} v${number}`);
    const message = `Product must be one of ${named.join(', ')}${newest.length > named.length ? ', …' : ''}`;
    throw ApiError.badRequest(message, { product_name: [message] });
  }

  /** The refusal of any license request before the first version (null once there is one). */
  async releaseRefusal(): Promise<ApiError | null> {
    return (await this.versionsService.numbers(1)).length ? null : ApiError.conflict(NO_RELEASE_YET);
  }

  /** Every version, latest first, as a product choice. */
  private async versions(appName: string): Promise<AvailableVersionDto[]> {
    return (await this.versionsService.all()).map((version) => ({
      id: version.id,
      version: version.version,
      product_name: `${appName} v${version.version}`,
      is_latest: version.is_latest,
      is_stable: version.is_stable,
      release_date: version.release_date,
    }));
  }
}
