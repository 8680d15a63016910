import { Inject, Injectable, Logger } from '@nestjs/common';
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, KeyObject, sign } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';

export const SIGNING_KEY_FILE = 'license-signing-key.pem';

interface SigningKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  publicKeyPem: string;
  keyId: string;
}

/**
 * The portal's Ed25519 key: it signs license files and activation answers. Given by LICENSE_SIGNING_KEY,
 * or generated at the first start and kept in DATA_DIR (mode 600). Instances behind one load balancer must share it.
 */
// The exact form of the signed bytes, for modules that sign or check with this key.
export { canonicalJson } from './canonical-json';

@Injectable()
export class LicenseSigningService {
  private readonly logger = new Logger('LicenseSigning');
  private key: SigningKey | null = null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** Loads the key now, creating the key file if there is none yet; says where the key comes from. */
  ensureKey(): { keyId: string; source: string } {
    const { keyId } = this.load();
    return { keyId, source: this.config.licensing.signingKeyPem ? 'LICENSE_SIGNING_KEY' : this.keyFile() };
  }

  get publicKeyPem(): string {
    return this.load().publicKeyPem;
  }

  get publicKey(): KeyObject {
    return this.load().publicKey;
  }

  /** First 16 hex digits of the SHA-256 of the public key (SPKI DER): names the key inside signed data. */
  get keyId(): string {
    return this.load().keyId;
  }

  sign(data: Buffer): Buffer {
    return sign(null, data, this.load().privateKey);
  }

  // Loaded on first use (main.ts asks at start), so building the app for the OpenAPI generator writes no key file.
  private load(): SigningKey {
    if (this.key) return this.key;
    const privateKey = createPrivateKey(this.config.licensing.signingKeyPem ?? this.readOrCreateKeyFile());
    const publicKey = createPublicKey(privateKey);
    const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const der = publicKey.export({ type: 'spki', format: 'der' });
    this.key = { privateKey, publicKey, publicKeyPem, keyId: createHash('sha256').update(der).digest('hex').slice(0, 16) };
    return this.key;
  }

  private keyFile(): string {
    return join(this.config.dataDir, SIGNING_KEY_FILE);
  }

  private readOrCreateKeyFile(): string {
    const file = this.keyFile();
    try {
      return readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const { privateKey } = generateKeyPairSync('ed25519');
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    mkdirSync(this.config.dataDir, { recursive: true });
    try {
      // 'wx': if another process created it a moment ago, keep theirs.
      writeFileSync(file, pem, { mode: 0o600, flag: 'wx' });
      chmodSync(file, 0o600);
      this.logger.log(`Generated the license signing key in ${file}`);
      return pem;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8');
      throw error;
    }
  }
}
