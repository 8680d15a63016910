import { HttpStatus, Injectable } from '@nestjs/common';
import { ApiError } from '../../common/api-error';
import { DistributionFilesService } from '../distribution-files/distribution-files.service';
import { DownloadLinksService, type RequestOrigin } from '../downloads/download-links.service';
import type { LicenseHolder } from '../license-server/license-server.service';
import { ReleaseCoverageService } from '../licenses/release-coverage.service';
import { ReleaseManifestsService } from '../release-manifests/release-manifests.service';
import { offeredTo } from '../versions/version-catalog.service';
import type { Architecture, Channel, OsType } from '../versions/versions.constants';
import { Cache } from '../../common/cache';
import { ReleaseOffersRepository } from './release-offers.repository';
import type { UpdateOfferDto } from './dto/update.dto';
import { nextRelease } from './update-choice';

/** A distribution file as the files' cache lists it. */
type DistributionFile = Awaited<ReturnType<DistributionFilesService['forVersions']>>[number];

/** What a streaming server asks the update API. */
export interface UpdateRequest {
  current: string | null;
  os: OsType;
  arch: Architecture;
  channel: Channel;
  constraint: string | null;
}

/** Signed links in an offer expire on whole minutes, so the same offer within a minute is the same body (ETag, 304). */
const LINK_STEP_SECONDS = 60;

/**
 * The update API: the newest release a license covers that the server may move to (its channel, its constraint,
 * above what it runs) and that has a build for its OS and architecture, with signed links to those builds and the
 * release's signed manifest.
 */
@Injectable()
export class UpdatesService {
  /** Builds per platform, by the files' list (the files' cache) they were sorted from. */
  private readonly builds = new WeakMap<object, Map<string, Map<number, DistributionFile[]>>>();
  /** Offers recorded by this instance (release and device), so a server asking again costs no write. */
  private readonly recorded = new Cache<true>({ max: 100_000, ttlMs: 24 * 3600_000 });

  constructor(
    private readonly offers: ReleaseOffersRepository,
    private readonly coverage: ReleaseCoverageService,
    private readonly files: DistributionFilesService,
    private readonly links: DownloadLinksService,
    private readonly manifests: ReleaseManifestsService,
  ) {}

  /** The offer, or null when the server runs the newest release it may have (or none has a build for it). */
  async offer(holder: LicenseHolder, request: UpdateRequest, origin: RequestOrigin): Promise<UpdateOfferDto | null> {
    const { license, ownerChannel, device } = holder;
    const serverUid = device?.server_uid ?? null;
    const covered = await this.coverage.coveredReleases(license, ownerChannel);
    if (!covered.length) return null;
    const builds = this.buildsOf(await this.files.forVersions(covered.map((release) => release.id)), request);
    // A release in a staged rollout goes to its share of servers only (a caller that names none: to none).
    const release = nextRelease(covered, request, (candidate) => offeredTo(candidate, serverUid) && builds.has(candidate.id));
    if (!release) return null;
    const [manifest, advice] = await Promise.all([
      this.manifests.manifestOf(release),
      this.coverage.adviseServer(license, ownerChannel, request.current, serverUid),
    ]);
    const owner = license.user_id;
    // Links are signed for an account (the download checks it is active and covered); a deleted one's license has none.
    if (owner === null)
      throw new ApiError(
        HttpStatus.FORBIDDEN,
        "This license's account was deleted: ask the vendor to attach the license to an account",
        undefined,
        'NO_ACCOUNT',
      );
    const baseUrl = this.links.baseUrl(origin);
    if (device) await this.record(release.id, device.id);
    return {
      version: release.version,
      channel: release.channel,
      published_at: manifest.manifest.published_at,
      current: request.current,
      update_required: advice.updateRequired,
      files: builds.get(release.id)!.map((file) => {
        const link = this.links.sign(file.id, owner, LINK_STEP_SECONDS);
        return {
          os: file.os_type,
          arch: file.architecture,
          name: file.file_name,
          size: Number(file.file_size),
          sha256: file.file_hash,
          url: this.links.url(link, baseUrl),
          expires_at: new Date(link.expires * 1000),
        };
      }),
      manifest: { manifest: manifest.manifest, signature: manifest.signature, kid: manifest.kid },
    };
  }

  /** The builds of each release for a platform, by name, kept with the files' list they were read from. */
  private buildsOf(files: DistributionFile[], platform: Pick<UpdateRequest, 'os' | 'arch'>): Map<number, DistributionFile[]> {
    const key = `${platform.os}|${platform.arch}`;
    const kept = this.builds.get(files)?.get(key);
    if (kept) return kept;
    const builds = new Map<number, DistributionFile[]>();
    for (const file of files)
      if (file.os_type === platform.os && file.architecture === platform.arch)
        builds.set(file.version_id, [...(builds.get(file.version_id) ?? []), file]);
    for (const list of builds.values()) list.sort((a, b) => (a.file_name < b.file_name ? -1 : a.file_name > b.file_name ? 1 : 0));
    if (!this.builds.has(files)) this.builds.set(files, new Map());
    this.builds.get(files)!.set(key, builds);
    return builds;
  }

  /** Servers the update API offered the release (each once). */
  countOffered(versionId: number): Promise<number> {
    return this.offers.count(versionId);
  }

  private async record(versionId: number, deviceId: number): Promise<void> {
    const key = `${versionId}:${deviceId}`;
    if (this.recorded.peek(key)) return;
    await this.offers.record(versionId, deviceId, new Date());
    this.recorded.set(key, true);
  }
}
