import { Inject, Injectable, Logger } from '@nestjs/common';
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, KeyObject, sign } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError } from '../../common/api-error';
import { Cache } from '../../common/cache';
import { SecretBox } from '../../common/secret-box';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { Transactions } from '../../database/transactions';
import { SigningKeyEntity } from './signing-key.entity';
import { NewSigningKey, SigningKeysRepository } from './signing-keys.repository';

export const SIGNING_KEY_FILE = 'license-signing-key.pem';
/** How long an instance signs with the key it read: another instance's rotation takes over within this. */
export const SIGNING_KEYS_TTL_MS = 5_000;

// The exact form of the signed bytes, for modules that sign or check with these keys.
export { canonicalJson } from './canonical-json';

/** The key that signs now. */
export interface SigningKey {
  readonly kid: string;
  readonly publicKeyPem: string;
  sign(data: Buffer): Buffer;
}

/** A key as GET /api/license-server/public-keys lists it. */
export interface ListedSigningKey {
  kid: string;
  algorithm: 'Ed25519';
  public_key_pem: string;
  current: boolean;
  created_at: Date;
  retired_at: Date | null;
}

interface Keyring {
  current: SigningKey;
  listed: ListedSigningKey[];
}

export const CURRENT_KEY_REMOVAL = 'This is the current signing key: rotate first, then remove it.';

/** First 16 hex digits of the SHA-256 of the public key (SPKI DER): names the key inside signed data. */
export function keyIdOf(publicKey: KeyObject): string {
  return createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex')
    .slice(0, 16);
}

/**
 * The portal's Ed25519 signing keys (table signing_keys): the newest live one signs license files, activation answers
 * and release manifests; older ones are listed so what they signed still verifies, until an admin removes them.
 * The first key is LICENSE_SIGNING_KEY, or a key generated at the first start and kept in DATA_DIR (mode 600),
 * imported when the table is empty, so a deployment keeps its kid. Private halves are stored sealed (SecretBox).
 */
@Injectable()
export class LicenseSigningService {
  private readonly logger = new Logger('LicenseSigning');
  private readonly box: SecretBox;
  /** Every signature reads the keyring: cached, a stale one served while the next loads, cleared on this instance's writes. */
  private readonly keyrings = new Cache<Keyring>({ max: 1, ttlMs: SIGNING_KEYS_TTL_MS, staleWhileRevalidate: true });

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly keys: SigningKeysRepository,
    private readonly transactions: Transactions,
  ) {
    this.box = new SecretBox(config.licensing.signingKeysEncryptionKey);
  }

  /** Loads the keys now (importing the first one if there is none yet); says which key signs and where it came from. */
  async ensureKey(): Promise<{ keyId: string; source: string }> {
    const { current, listed } = await this.keyring();
    const configured = this.configuredKey();
    const configuredKid = configured && keyIdOf(createPublicKey(createPrivateKey(configured.pem)));
    if (configuredKid && !listed.some((key) => key.kid === configuredKid))
      this.logger.warn(
        `${configured.source} (key ${configuredKid}) is not among the signing keys: it only gives the first key; keys are rotated in the admin Settings`,
      );
    return { keyId: current.kid, source: configuredKid === current.kid ? configured!.source : 'signing_keys (rotated in Settings)' };
  }

  /** The key that signs now (another instance's rotation shows within SIGNING_KEYS_TTL_MS). */
  async current(): Promise<SigningKey> {
    return (await this.keyring()).current;
  }

  /** The current key and the previous ones not removed, newest first. */
  async list(): Promise<ListedSigningKey[]> {
    return (await this.keyring()).listed;
  }

  /** A new key signs from now on; the previous ones still verify until removed. */
  async rotate(): Promise<ListedSigningKey> {
    // The first key is imported before any rotation, so what it signed stays verifiable.
    await this.keyring();
    const row = this.newRow(generateKeyPairSync('ed25519').privateKey);
    try {
      await this.transactions.run(async (transaction) => {
        await this.keys.retireAll(new Date(), transaction);
        if (!(await this.keys.insert(row, transaction))) throw new Error(`Signing key ${row.kid} exists already`);
      });
    } finally {
      this.keyrings.clear();
    }
    const rotated = (await this.list()).find((key) => key.kid === row.kid);
    if (!rotated) throw new Error(`Signing key ${row.kid} was not stored`);
    this.logger.log(`Signing key ${row.kid} signs from now on`);
    return rotated;
  }

  /** Removes a previous key: what it signed no longer verifies. 404 for an unknown or removed key, 409 for the current one. */
  async remove(kid: string): Promise<void> {
    const key = await this.keys.findByKid(kid);
    if (!key || key.removed_at) throw ApiError.notFound('Signing key not found');
    try {
      if (!(await this.keys.remove(kid, new Date()))) throw ApiError.conflict(CURRENT_KEY_REMOVAL);
    } finally {
      this.keyrings.clear();
    }
  }

  private keyring(): Promise<Keyring> {
    return this.keyrings.get('keyring', () => this.loadKeyring());
  }

  private async loadKeyring(): Promise<Keyring> {
    let rows = await this.keys.live();
    if (!rows.length && !(await this.keys.any())) {
      // A concurrent first start may import its own key too: the newest then signs, and both verify.
      const { pem } = this.configuredKey() ?? { pem: this.createKeyFile() };
      await this.keys.insert(this.newRow(createPrivateKey(pem)));
      rows = await this.keys.live();
    }
    // Newest first; a rotation that raced another may leave a newer row without its private half.
    const signer = rows.find((row) => row.private_key_sealed !== null);
    if (!signer) throw new Error('No signing key can sign: every stored key is retired or removed');
    return { current: this.openKey(signer), listed: rows.map((row) => listed(row, row === signer)) };
  }

  private openKey(row: SigningKeyEntity): SigningKey {
    const pem = this.box.open(row.private_key_sealed!);
    if (pem === null)
      throw new Error(
        `The current signing key ${row.kid} cannot be decrypted: SIGNING_KEYS_SECRET (or JWT_SECRET, when it is unset) differs from the one it was stored with`,
      );
    const privateKey = createPrivateKey(pem);
    return { kid: row.kid, publicKeyPem: row.public_key_pem, sign: (data) => sign(null, data, privateKey) };
  }

  private newRow(privateKey: KeyObject): NewSigningKey {
    const publicKey = createPublicKey(privateKey);
    return {
      kid: keyIdOf(publicKey),
      public_key_pem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      private_key_sealed: this.box.seal(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()),
    };
  }

  /** LICENSE_SIGNING_KEY, else the key file in DATA_DIR if there is one. */
  private configuredKey(): { pem: string; source: string } | null {
    if (this.config.licensing.signingKeyPem) return { pem: this.config.licensing.signingKeyPem, source: 'LICENSE_SIGNING_KEY' };
    const file = this.keyFile();
    return existsSync(file) ? { pem: readFileSync(file, 'utf8'), source: file } : null;
  }

  private keyFile(): string {
    return join(this.config.dataDir, SIGNING_KEY_FILE);
  }

  /** The first key of a new deployment, kept in DATA_DIR as before keys were rotated (an operator may back it up). */
  private createKeyFile(): string {
    const file = this.keyFile();
    const pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
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

function listed(row: SigningKeyEntity, current: boolean): ListedSigningKey {
  return {
    kid: row.kid,
    algorithm: 'Ed25519',
    public_key_pem: row.public_key_pem,
    current,
    created_at: row.created_at,
    retired_at: row.retired_at,
  };
}
