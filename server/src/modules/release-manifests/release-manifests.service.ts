import { Injectable } from '@nestjs/common';
import { createPublicKey } from 'node:crypto';
import { DistributionFilesService, type DownloadableFile } from '../distribution-files/distribution-files.service';
import { canonicalJson, LicenseSigningService } from '../licenses/license-signing.service';
import { SettingsService } from '../settings/settings.service';
import { VersionCatalogService } from '../versions/version-catalog.service';
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
 * architecture, name, size and SHA-256, as canonical JSON signed with the current key. Signed per request
 * (Ed25519 is deterministic: the same manifest and key give the same signature), so a rotation or a new file shows at once.
 */
@Injectable()
export class ReleaseManifestsService {
  constructor(
    private readonly catalog: VersionCatalogService,
    private readonly files: DistributionFilesService,
    private readonly settings: SettingsService,
    private readonly signing: LicenseSigningService,
  ) {}

  /** The signed manifest of a published release; null for a draft, a yanked or an unknown version. */
  async manifestFor(version: string): Promise<SignedManifest | null> {
    const release = await this.catalog.published(version);
    if (!release) return null;
    const [files, appInfo, key] = await Promise.all([
      this.files.forVersions([release.id]),
      this.settings.get('app_info'),
      this.signing.current(),
    ]);
    const manifest: ReleaseManifest = {
      product: appInfo.name,
      version: release.version,
      channel: release.channel,
      published_at: (release.published_at ?? release.created_at).toISOString(),
      files: files.map(manifestFile),
      kid: key.kid,
    };
    const bytes = Buffer.from(canonicalJson(manifest), 'utf8');
    return { manifest, signature: key.sign(bytes).toString('base64'), kid: key.kid, bytes };
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
