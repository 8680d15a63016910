import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { ApiError } from '../../common/api-error';
import { MAX_LENGTH } from '../../database/column-lengths';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import type { ActivationCode } from '../devices/devices.constants';
import { DeviceSeatsService, refusalOf, SeatOutcome } from '../devices/device-seats.service';
import type { ActivationLookup } from '../devices/devices.repository';
import { ReleaseCoverageService, type UpdateAdvice } from '../licenses/release-coverage.service';
import { normalizeLicenseKey } from '../licenses/licenses.service';
import { LicenseSigningService, SigningKey } from '../licenses/license-signing.service';
import { RemoteLogsService } from '../logs/remote-logs.service';
import { ActivationRequest } from './activation-request';
import { ActivationThrottle } from './activation-throttle';
import { ActivationAnswerDto, PublicKeyDto, PublicKeysDto } from './dto/activation.dto';

export type LicenseServerAction = ActivationAnswerDto['action'];

const MESSAGES: Record<ActivationCode, string> = {
  VALID: 'License is valid',
  DEACTIVATED: 'This server is deactivated; its seat is free',
  EXPIRED: 'License has expired',
  REVOKED: 'License has been revoked',
  PENDING: 'License is not active yet',
  TOO_MANY_DEVICES: 'Every seat of this license is in use; deactivate a server first',
  NOT_FOUND: 'Unknown license key',
  NOT_ACTIVATED: 'This server is not activated on this license',
  VERSION_NOT_COVERED: 'This server runs a release that its license does not cover: install newest_covered, or renew the license',
};

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** A signed activation response: its data and the HTTP body that carries it (`{success, data}`), serialized once. */
export interface SignedResponse {
  data: ActivationAnswerDto;
  body: string;
}

/** A streaming server that proved its license key (and, where it named one, that it holds a seat on it). */
export type LicenseHolder = ActivationLookup & { license: NonNullable<ActivationLookup['license']> };

/** The activation API that streaming servers call: every response signed, every call for a known key recorded as a remote log. */
@Injectable()
export class LicenseServerService {
  private readonly heartbeatSeconds: number;

  constructor(
    private readonly devices: DeviceSeatsService,
    private readonly signing: LicenseSigningService,
    private readonly remoteLogs: RemoteLogsService,
    private readonly throttle: ActivationThrottle,
    private readonly coverage: ReleaseCoverageService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    // Three heartbeats fit in the inactivity window, and at least one an hour.
    this.heartbeatSeconds = Math.max(10, Math.min(3600, Math.floor(config.licensing.deviceInactiveAfterSeconds / 3)));
  }

  /** The key that signs now. */
  async publicKey(): Promise<PublicKeyDto> {
    const key = await this.signing.current();
    return { algorithm: 'Ed25519', key_id: key.kid, public_key_pem: key.publicKeyPem };
  }

  /** The current and the previous keys, newest first: what verifies license files, answers and manifests. */
  async publicKeys(): Promise<PublicKeysDto> {
    const keys = await this.signing.list();
    return {
      keys: keys.map(({ kid, algorithm, public_key_pem, current, created_at }) => ({
        kid,
        algorithm,
        public_key_pem,
        current,
        created_at,
      })),
    };
  }

  /**
   * The update API's credential, the activation API's: a license key, rate-limited alike (an unknown key counts
   * against the address), and, when `serverUid` is given, a server that holds a seat on it. A revoked or pending
   * license is refused (403 with its code); an expired one still reaches the releases it covers.
   */
  async authenticate(key: string, serverUid: string | null, ip: string | null): Promise<LicenseHolder> {
    const licenseKey = normalizeLicenseKey(key);
    await this.throttle.admit(ip ?? 'unknown', licenseKey);
    // A key longer than any stored one is unknown without a lookup, but counted as one like any other.
    const found =
      licenseKey.length > MAX_LENGTH.licenseKey
        ? { license: null, device: null, ownerChannel: null }
        : await this.devices.lookup(licenseKey, serverUid ?? '');
    const { license, device } = found;
    if (!license) {
      await this.throttle.unknownKey(ip ?? 'unknown');
      throw new ApiError(HttpStatus.UNAUTHORIZED, MESSAGES.NOT_FOUND, undefined, 'NOT_FOUND');
    }
    const refused = refusalOf(license);
    if (refused === 'REVOKED' || refused === 'PENDING') throw new ApiError(HttpStatus.FORBIDDEN, MESSAGES[refused], undefined, refused);
    if (serverUid !== null && (!device || device.deactivated_at !== null))
      throw new ApiError(HttpStatus.FORBIDDEN, MESSAGES.NOT_ACTIVATED, undefined, 'NOT_ACTIVATED');
    return { ...found, license };
  }

  async handle(action: LicenseServerAction, request: ActivationRequest, ip: string | null): Promise<SignedResponse> {
    const licenseKey = normalizeLicenseKey(request.license_key);
    await this.throttle.admit(ip ?? 'unknown', licenseKey);
    const [{ license, device, ownerChannel }, key] = await Promise.all([
      this.devices.lookup(licenseKey, request.server_uid),
      this.signing.current(),
    ]);
    if (!license) {
      // Counted, not logged: a flood of guessed keys must not become a flood of rows.
      await this.throttle.unknownKey(ip ?? 'unknown');
      return this.signed(key, action, request, licenseKey, null, null);
    }
    // The release it runs: as it says now, else as it said before.
    const advice =
      action === 'deactivate' ? null : await this.coverage.adviseServer(license, ownerChannel, request.version ?? device?.version, request.server_uid);
    let outcome: SeatOutcome;
    let written: Promise<void> = Promise.resolve();
    const identity = Object.assign({ ...request }, { ip });
    // A server running a release its license does not cover gets no seat, and a heartbeat of one is not valid.
    if (action === 'activate' && advice?.notCovered && !refusalOf(license)) outcome = { code: 'VERSION_NOT_COVERED', license, device };
    else if (action === 'activate') outcome = await this.devices.activate(license, identity);
    else if (action === 'validate') ({ written, ...outcome } = await this.devices.validate(license, identity, device));
    else outcome = await this.devices.deactivate(license, request.server_uid);
    if (outcome.code === 'VALID' && advice?.notCovered) outcome = { ...outcome, code: 'VERSION_NOT_COVERED' };
    const signed = this.signed(key, action, request, licenseKey, outcome, advice);
    const { data } = signed;
    this.remoteLogs.record({
      action,
      level: data.valid || data.code === 'DEACTIVATED' ? 'info' : 'warning',
      message: `${action} ${data.code}: ${data.message}`,
      license_key: licenseKey,
      server_uid: request.server_uid,
      hostname: request.hostname ?? outcome.device?.hostname ?? null,
      product: request.product ?? outcome.device?.product ?? null,
      version: request.version ?? outcome.device?.version ?? null,
      valid: data.valid,
      code: data.code,
      ip_address: ip,
      created_at: new Date(data.issued_at),
    });
    await written;
    return signed;
  }

  /**
   * The signed response. Every object is built with its keys in sorted order and holds only strings, numbers,
   * booleans and null, so JSON.stringify gives its canonical JSON without a separate (slower) serializer; the
   * HTTP body is made from those same bytes, as JSON.stringify({success, data: {...signed, signature}}) would write it.
   */
  private signed(
    key: SigningKey,
    action: LicenseServerAction,
    request: ActivationRequest,
    licenseKey: string,
    outcome: SeatOutcome | null,
    advice: UpdateAdvice | null,
  ): SignedResponse {
    const code: ActivationCode = outcome?.code ?? 'NOT_FOUND';
    const license = outcome?.license ?? null;
    const device = outcome?.device ?? null;
    const valid = code === 'VALID';
    const signed: Omit<ActivationAnswerDto, 'signature'> = {
      action,
      code,
      device: device && {
        activated_at: device.activated_at.toISOString(),
        deactivated_at: iso(device.deactivated_at),
        last_activity_at: iso(device.last_activity_at),
        server_uid: device.server_uid,
        status: device.status,
      },
      heartbeat_seconds: this.heartbeatSeconds,
      issued_at: new Date().toISOString(),
      key_id: key.kid,
      license: license && {
        current_activations: license.current_activations,
        expires_at: license.expires_at.toISOString(),
        is_trial: license.is_trial,
        license_key: license.license_key,
        max_activations: license.max_activations,
        product_name: license.product_name,
        status: code === 'EXPIRED' ? 'expired' : license.status,
      },
      license_key: licenseKey,
      message: valid && action === 'activate' ? 'License activated on this server' : MESSAGES[code],
      newest_covered: advice?.newestCovered ?? null,
      nonce: request.nonce,
      server_uid: request.server_uid,
      update_available: advice?.updateAvailable ?? null,
      update_required: advice?.updateRequired ?? false,
      valid,
    };
    const text = JSON.stringify(signed);
    const signature = key.sign(Buffer.from(text, 'utf8')).toString('base64');
    const success = action === 'deactivate' ? code === 'DEACTIVATED' : valid;
    return {
      data: Object.assign(signed, { signature }),
      body: `{"success":${success},"data":${text.slice(0, -1)},"signature":"${signature}"}}`,
    };
  }
}
