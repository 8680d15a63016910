import { Injectable } from '@nestjs/common';
import { createPublicKey } from 'node:crypto';
import { DistributionFilesService, type DownloadableFile } from '../distribution-files/distribution-files.service';
import { canonicalJson, LicenseSigningService } from '../licenses/license-signing.service';
import { SettingsService } from '../settings/settings.service';
import { type PublishedRelease, VersionCatalogService } from '../versions/version-catalog.service';
import type { Channel } from '../versions/versions.constants';

/** One file of a release, as the manifest lists it. */
export interface ManifestFile {
  os: string;
  arch: string;
  name: string;
  size: number;
  /** SHA-256 of the file's bytes, in hex. */
  sha256: string;
}

/** What a published release holds, signed so that a server or script can check a downloaded file offline. */
export interface ReleaseManifest {
  product: string;
  version: string;
  channel: Channel;
  /** ISO 8601, UTC. */
  published_at: string;
  /** By OS, architecture and name. */
  files: ManifestFile[];
  /** The key that signed it. */
  kid: string;
}

export interface SignedManifest {
  manifest: ReleaseManifest;
  /** Ed25519 over `bytes`, in base64. */
  signature: string;
  kid: string;
  /** The canonical JSON of `manifest`: exactly the bytes signed. */
  bytes: Buffer;
}

/** What an install command needs to check a file against its release's manifest. */
export interface ManifestCheck {
  version: string;
  /** The file's entry as canonical JSON: a substring of the canonical manifest that lists it. */
  entry: string;
  /** The current key's SubjectPublicKeyInfo (DER) in base64: the key the manifest will be signed with. */
  publicKeyDer: string;
}

const manifestFile = (
  file: Pick<DownloadableFile, 'os_type' | 'architecture' | 'file_name' | 'file_size' | 'file_hash'>,
): ManifestFile => ({
  os: file.os_type,
  arch: file.architecture,
  name: file.file_name,
  size: Number(file.file_size),
  sha256: file.file_hash,
});

/**
 * Signed manifests of published releases: product, version, channel, publication time and each file's OS,
 * architecture, name, size and SHA-256, as canonical JSON signed with the current key (Ed25519 is deterministic: the
 * same manifest and key give the same signature), made again once its files, the key or the product name change.
 */
@Injectable()
export class ReleaseManifestsService {
  /** Signed manifests by the files' list they were made over (a list the files' cache drops takes its manifest along). */
  private readonly signed = new WeakMap<object, SignedManifest>();

  constructor(
    private readonly catalog: VersionCatalogService,
    private readonly files: DistributionFilesService,
    private readonly settings: SettingsService,
    private readonly signing: LicenseSigningService,
  ) {}

  /** The signed manifest of a published release; null for a draft, a yanked or an unknown version. */
  async manifestFor(version: string): Promise<SignedManifest | null> {
    const release = await this.catalog.published(version);
    return release && this.manifestOf({ ...release, published_at: release.published_at ?? release.created_at });
  }

  /**
   * The signed manifest of a release as the catalog lists it (the update API's, read for every offer): its files as
   * the files' cache holds them and the product name as the settings' cache does. The signature is kept with the
   * files' list it was made over, so it is made again whenever that list, the key or the name changes.
   */
  async manifestOf(release: Pick<PublishedRelease, 'id' | 'version' | 'channel' | 'published_at'>): Promise<SignedManifest> {
    const [files, appInfo, key] = await Promise.all([
      this.files.forVersions([release.id]),
      this.settings.cached('app_info'),
      this.signing.current(),
    ]);
    const published = (release.published_at ?? new Date(0)).toISOString();
    const kept = this.signed.get(files);
    if (kept && kept.kid === key.kid && kept.manifest.product === appInfo.name && kept.manifest.published_at === published) return kept;
    const manifest: ReleaseManifest = {
      product: appInfo.name,
      version: release.version,
      channel: release.channel,
      published_at: published,
      files: files.map(manifestFile),
      kid: key.kid,
    };
    const bytes = Buffer.from(canonicalJson(manifest), 'utf8');
    const signed = { manifest, signature: key.sign(bytes).toString('base64'), kid: key.kid, bytes };
    this.signed.set(files, signed);
    return signed;
  }

  /** What the install command of a file checks (signature, then its entry); null when its version is not published. */
  async checkFor(file: DownloadableFile): Promise<ManifestCheck | null> {
    if (file.version_state !== 'published') return null;
    const key = await this.signing.current();
    return {
      version: file.version,
      entry: canonicalJson(manifestFile(file)),
      publicKeyDer: createPublicKey(key.publicKeyPem).export({ type: 'spki', format: 'der' }).toString('base64'),
    };
  }
}
