import { Injectable } from '@nestjs/common';
import { ApiError } from '../../common/api-error';
import { SettingsService } from '../settings/settings.service';
import { VersionCatalogService } from '../versions/version-catalog.service';
import { AvailableVersionDto, AvailableVersionsDto } from './dto/license.dto';
import { ADMIN_PRODUCT_TIERS } from './admin-licenses.service';

/** How many of the newest products a refused product's message names. */
const PRODUCTS_NAMED_IN_REFUSAL = 10;

/** "{app_info.name} v{version}", with a version such as 2.1.0 or 3.0.0-beta.1. */
const versionedProduct = (appName: string) =>
  new RegExp(`^${appName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} v\\d+(\\.\\d+){0,3}([-+][0-9A-Za-z.-]+)?$`);

/**
 * Which products a license may be for: the admin tiers "{app_info.name} Pro|Enterprise|Basic", and
 * "{app_info.name} v{version}" for the versions clients see (read through VersionCatalogService).
 *
 * A client's product must name an existing version. Only while no version has been uploaded at all is any
 * well-formed "{app} v{version}" accepted, so a fresh installation can still hand out test licenses.
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
   * only: thousands of versions stay a small answer); while no version exists, the app's current version if well-formed.
   */
  async clientProducts(): Promise<string[]> {
    const { name, version } = await this.settings.get('app_info');
    const numbers = await this.versionsService.numbers();
    if (numbers.length) return numbers.map((number) => `${name} v${number}`);
    const current = `${name} v${version.trim().replace(/^v/i, '')}`;
    return versionedProduct(name).test(current) ? [current] : [];
  }

  /**
   * A client's product must be "{app_info.name} v{version}" of an existing version (400 otherwise): one index seek,
   * whatever the number of versions. The refusal names the newest few choices, not thousands.
   */
  async assertClientProduct(productName: string): Promise<void> {
    const { name } = await this.settings.get('app_info');
    const prefix = `${name} v`;
    if (productName.startsWith(prefix) && (await this.versionsService.hasNumber(productName.slice(prefix.length)))) return;
    const newest = await this.versionsService.numbers(PRODUCTS_NAMED_IN_REFUSAL + 1);
    if (!newest.length && versionedProduct(name).test(productName)) return;
    const named = newest.slice(0, PRODUCTS_NAMED_IN_REFUSAL).map((number) => `${name} v${number}`);
    const message = newest.length
      ? `Product must be one of ${named.join(', ')}${newest.length > named.length ? ', …' : ''}`
      : `Product must be "${name} v{version}", e.g. "${name} v2.1.0"`;
    throw ApiError.badRequest(message, { product_name: [message] });
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
