import { HttpStatus, Injectable } from '@nestjs/common';
import { ApiError } from '../../common/api-error';
import type { UserRole } from '../../common/roles';
import { SettingsService } from '../settings/settings.service';
import { UsersService } from '../users/users.service';
import type { Channel } from '../versions/versions.constants';
import { LicensesRepository } from './licenses.repository';
import { offeredTo, type PublishedRelease, VersionCatalogService } from '../versions/version-catalog.service';
import type { LicenseEntity } from './license.entity';
import {
  coveredBy,
  type Grant,
  type Release,
  type ReleaseAccess,
  refusalMessage,
  releaseAccess,
  updateAdvice,
  type UpdateAdvice,
  widerChannel,
} from './release-coverage';

export { DOWNLOAD_REFUSALS, type DownloadRefusal, type Release, type ReleaseAccess, type UpdateAdvice } from './release-coverage';

/** Whom a release is shown or handed to. */
export interface Customer {
  id: number;
  role: UserRole;
}

/** An admin's view of every release: theirs to download, none of it a customer's coverage. */
const ADMIN_ACCESS: ReleaseAccess = { covered: true, renew: false, refusal: null };

/**
 * Which releases a customer's licenses cover (see release-coverage.ts), read from their licenses, their account's
 * channel and the vendor's setting; admins download everything.
 */
@Injectable()
export class ReleaseCoverageService {
  constructor(
    private readonly licenses: LicensesRepository,
    private readonly users: UsersService,
    private readonly settings: SettingsService,
    private readonly catalog: VersionCatalogService,
  ) {}

  /** What the customer may do with each of these releases, in their order. */
  async accessTo(customer: Customer, releases: Release[]): Promise<ReleaseAccess[]> {
    if (customer.role === 'admin') return releases.map(() => ADMIN_ACCESS);
    const [grants, requireLicense] = await Promise.all([this.grantsOf(customer.id), this.settings.downloadsRequireLicense()]);
    return releases.map((release) => releaseAccess(grants, release, requireLicense));
  }

  /**
   * Whether every signed-in customer may download a published release of this channel without their licenses
   * being read: stable, while the vendor does not require a license for downloads (the download fast path serves
   * only these, and leaves the rest to the controller's check).
   */
  async openToAll(channel: Channel): Promise<boolean> {
    return channel === 'stable' && !(await this.settings.downloadsRequireLicense());
  }

  /** 403 with the reason's code when the customer may not download the release. */
  async assertMayDownload(customer: Customer, release: Release): Promise<void> {
    const [access] = await this.accessTo(customer, [release]);
    if (access.refusal) throw new ApiError(HttpStatus.FORBIDDEN, refusalMessage(access.refusal, release), undefined, access.refusal);
  }

  /**
   * What validate tells a streaming server running `running` under this license (its owner's channel widening it):
   * read from the releases and the settings as cached for heartbeats, no query of its own.
   */
  async adviseServer(
    license: Pick<LicenseEntity, 'channel' | 'updates_until' | 'expires_at'>,
    ownerChannel: Channel | null,
    running: string | null | undefined,
    serverUid: string | null,
  ): Promise<UpdateAdvice> {
    const [releases, appInfo] = await Promise.all([this.catalog.releases(), this.settings.cached('app_info')]);
    const grants = [grantOf(license, ownerChannel)];
    return updateAdvice(grants, releases, running, appInfo.min_supported_version, (release) => offeredTo(release, serverUid));
  }

  /** The published releases this license covers (its owner's channel widening it), newest semantic version first. */
  async coveredReleases(
    license: Pick<LicenseEntity, 'channel' | 'updates_until' | 'expires_at'>,
    ownerChannel: Channel | null,
  ): Promise<PublishedRelease[]> {
    const grants = [grantOf(license, ownerChannel)];
    return (await this.catalog.releases()).filter((release) => coveredBy(grants, release));
  }

  /** The advice validate gives each of a customer's servers, by the release each last reported (My Devices). */
  async adviseDevices(
    userId: number,
    devices: Array<{
      server_uid: string;
      version: string | null;
      license: Pick<LicenseEntity, 'channel' | 'updates_until' | 'expires_at'>;
    }>,
  ): Promise<UpdateAdvice[]> {
    const [user, releases, appInfo] = await Promise.all([this.users.find(userId), this.catalog.releases(), this.settings.cached('app_info')]);
    return devices.map((device) =>
      updateAdvice([grantOf(device.license, user?.channel ?? null)], releases, device.version, appInfo.min_supported_version, (release) =>
        offeredTo(release, device.server_uid),
      ),
    );
  }

  /** One grant per license that counts, with the wider of the license's and its owner's channel. */
  private async grantsOf(userId: number): Promise<Grant[]> {
    const [rows, user] = await Promise.all([this.licenses.grantsOf(userId), this.users.find(userId)]);
    return rows.map((row) => grantOf(row, user?.channel ?? null));
  }
}

/** What a license grants, its owner's channel widening it. */
function grantOf(license: Pick<LicenseEntity, 'channel' | 'updates_until' | 'expires_at'>, ownerChannel: Channel | null): Grant {
  return {
    channel: ownerChannel ? widerChannel(license.channel, ownerChannel) : license.channel,
    updatesUntil: license.updates_until ?? license.expires_at,
  };
}
