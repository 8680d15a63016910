import { Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { ApiError, FieldErrors } from '../../common/api-error';
import { Cache } from '../../common/cache';
import { LICENSE_SERVER_CHANGED, notify } from '../../common/events';
import {
  AdminSettingsDto,
  AppInfoSettingsDto,
  FeaturesSettingsDto,
  LicenseServerSettingsInputDto,
  PatchableSettingKey,
  PricingSettingsDto,
  PublicSettingsDto,
  TestLicenseSettingsDto,
  UpdateSettingsDto,
} from './dto/settings.dto';
import { DEFAULT_SETTINGS, SettingsGroupKey, SettingsGroups } from './settings.defaults';
import { SettingsRepository } from './settings.repository';

const GROUP_KEYS = Object.keys(DEFAULT_SETTINGS) as SettingsGroupKey[];

/** The DTO that checks each group as the admin writes it. */
const GROUP_DTOS = {
  test_license: TestLicenseSettingsDto,
  pricing: PricingSettingsDto,
  app_info: AppInfoSettingsDto,
  features: FeaturesSettingsDto,
  license_server: LicenseServerSettingsInputDto,
} as const;

/** Not a settings group: where the license-server sync stands. Stored in the same table, never in the settings API. */
const SYNC_STATE_KEY = 'license_server_sync_state';

export interface LicenseServerSyncState {
  /** When versions were last pushed (or confirmed by this portal as its own license server). */
  versions_synced_at: string | null;
  /** When licenses, devices and remote logs were last exchanged. */
  licenses_synced_at: string | null;
  /** How far remote logs were pulled, per license server. */
  remote_logs: { origin: string; after_id: number } | null;
  /** The last failed sync's reason, cleared by the next success. */
  last_error: string | null;
  /** When something was last pushed to the license server. */
  last_push_at: string | null;
  /** When its licenses and devices were last pulled. */
  last_pull_at: string | null;
}

const NO_SYNC_YET: LicenseServerSyncState = {
  versions_synced_at: null,
  licenses_synced_at: null,
  remote_logs: null,
  last_error: null,
  last_push_at: null,
  last_pull_at: null,
};

/** Money is stored in cents; the API shows the main unit as the spec does (`price_per_device: 10`). */
const toCents = (amount: number) => Math.round(amount * 100);
const fromCents = (cents: number) => cents / 100;

/** How long what is read on many requests is cached: the sync state beside the versions list, the download rule. */
const SETTINGS_TTL_MS = 5_000;

@Injectable()
export class SettingsService {
  private readonly shownSyncStates = new Cache<LicenseServerSyncState>({ max: 1, ttlMs: SETTINGS_TTL_MS });

  /** Groups read on hot paths (gated downloads, heartbeats); dropped by each write here (another instance's write shows within the ttl). */
  private readonly hotGroups = new Cache<SettingsGroups[SettingsGroupKey]>({ max: GROUP_KEYS.length, ttlMs: SETTINGS_TTL_MS });

  constructor(
    private readonly settings: SettingsRepository,
    private readonly events: EventEmitter2,
  ) {}

  /** Every group, stored values over defaults (so a field added in a release has its default). */
  async getAll(): Promise<SettingsGroups> {
    const stored = await this.settings.read(GROUP_KEYS);
    return Object.fromEntries(GROUP_KEYS.map((key) => [key, { ...DEFAULT_SETTINGS[key], ...stored.get(key) }])) as SettingsGroups;
  }

  async get<K extends SettingsGroupKey>(key: K): Promise<SettingsGroups[K]> {
    return { ...DEFAULT_SETTINGS[key], ...(await this.settings.readOne(key)) };
  }

  async set<K extends SettingsGroupKey>(key: K, value: SettingsGroups[K]): Promise<void> {
    try {
      await this.settings.write(key, value);
    } finally {
      this.hotGroups.clear();
    }
  }

  /** Stores the defaults for groups that have no row yet; returns the keys it added. */
  ensureDefaults(): Promise<SettingsGroupKey[]> {
    return this.settings.insertMissing(GROUP_KEYS.map((key) => [key, DEFAULT_SETTINGS[key]]));
  }

  async syncState(): Promise<LicenseServerSyncState> {
    return { ...NO_SYNC_YET, ...(await this.settings.readOne(SYNC_STATE_KEY)) };
  }

  /** Cached for every page of the versions list, dropped by each write here (another instance's sync shows within the TTL). */
  shownSyncState(): Promise<LicenseServerSyncState> {
    return this.shownSyncStates.get('', () => this.syncState());
  }

  /** Merges `changes` into the sync state (the sync runs one at a time per process, and each write is whole). */
  async recordSyncState(changes: Partial<LicenseServerSyncState>): Promise<LicenseServerSyncState> {
    const next = { ...(await this.syncState()), ...changes };
    try {
      await this.settings.write(SYNC_STATE_KEY, next);
    } finally {
      this.shownSyncStates.clear();
    }
    return next;
  }

  /** A group as get() reads it, cached for SETTINGS_TTL_MS: for what every download or heartbeat reads. */
  cached<K extends SettingsGroupKey>(key: K): Promise<SettingsGroups[K]> {
    return this.hotGroups.get(key, () => this.get(key)) as Promise<SettingsGroups[K]>;
  }

  /** Whether every customer download needs a covering license (features.downloads_require_license). */
  async downloadsRequireLicense(): Promise<boolean> {
    return (await this.cached('features')).downloads_require_license;
  }

  /** Whether clients may request test licenses: the group's switch and the feature flag must both be on. */
  trialsEnabled(all: SettingsGroups): boolean {
    return all.test_license.enabled && all.features.test_license_enabled;
  }

  /** The subset anyone may read (no limits per user, no license-server connection). */
  async getPublic(): Promise<PublicSettingsDto> {
    const all = await this.getAll();
    const { test_license: trial, pricing } = all;
    return {
      test_license: {
        enabled: this.trialsEnabled(all),
        duration_days: trial.duration_days,
        max_devices: trial.max_devices,
        description: trial.description,
        description_de: trial.description_de,
      },
      pricing: {
        price_per_device: fromCents(pricing.price_per_device_cents),
        currency: pricing.currency,
        max_duration_months: pricing.max_duration_months,
        min_duration_months: pricing.min_duration_months,
        max_devices: pricing.max_devices,
        description: pricing.description,
        description_de: pricing.description_de,
      },
      app_info: { ...all.app_info },
      features: { ...all.features },
    };
  }

  /** Everything the admin settings screen shows; the license-server token only as `api_token_set`. */
  async getAdmin(): Promise<AdminSettingsDto> {
    return toAdminView(await this.getAll());
  }

  /** Replaces the whole document (PUT). A missing `license_server.api_token` keeps the stored one. */
  async replace(dto: UpdateSettingsDto): Promise<AdminSettingsDto> {
    const current = await this.getAll();
    return this.saveAll(current, fromInput(dto, current));
  }

  /** Changes one value (PATCH `{key: 'pricing.price_per_device', value: 12}`), checked like PUT. */
  async patch(key: PatchableSettingKey, value: unknown): Promise<AdminSettingsDto> {
    const [group, field] = key.split('.') as [SettingsGroupKey, string];
    const current = await this.getAll();
    const input = { ...toInputView(current)[group], [field]: value } as Record<string, unknown>;
    const instance = plainToInstance(GROUP_DTOS[group] as new () => object, input);
    const failures = await validate(instance, { whitelist: true, forbidNonWhitelisted: true, stopAtFirstError: true });
    if (failures.length) {
      const errors: FieldErrors = {};
      for (const failure of failures) errors[`${group}.${failure.property}`] = Object.values(failure.constraints ?? {});
      throw ApiError.badRequest(Object.values(errors)[0]?.[0] ?? 'Invalid setting', errors);
    }
    const dto: UpdateSettingsDto = Object.assign(toInputView(current), { [group]: instance });
    if (field !== 'api_token') delete (dto.license_server as Partial<LicenseServerSettingsInputDto>).api_token;
    return this.saveAll(current, fromInput(dto, current));
  }

  /** A new license-server URL or token is announced, so the sync brings that server in step. */
  private async saveAll(current: SettingsGroups, groups: SettingsGroups): Promise<AdminSettingsDto> {
    checkAgreement(groups);
    try {
      await this.settings.writeAll(GROUP_KEYS.map((key) => [key, groups[key]]));
    } finally {
      this.hotGroups.clear();
    }
    const [before, after] = [current.license_server, groups.license_server];
    if (before.url !== after.url || before.api_token !== after.api_token) notify(this.events, LICENSE_SERVER_CHANGED, { url: after.url });
    return toAdminView(groups);
  }
}

/** The groups in the shape the admin writes them (price in the main unit, the token as stored). */
function toInputView(all: SettingsGroups): UpdateSettingsDto {
  const { price_per_device_cents, ...pricing } = all.pricing;
  return {
    test_license: { ...all.test_license },
    pricing: { ...pricing, price_per_device: fromCents(price_per_device_cents) },
    app_info: { ...all.app_info },
    features: { ...all.features },
    license_server: { ...all.license_server },
  };
}

function toAdminView(all: SettingsGroups): AdminSettingsDto {
  const { api_token, ...server } = all.license_server;
  const input = toInputView(all);
  return { ...input, license_server: { url: server.url, timeout_seconds: server.timeout_seconds, api_token_set: api_token.length > 0 } };
}

function fromInput(dto: UpdateSettingsDto, current: SettingsGroups): SettingsGroups {
  const { price_per_device, ...pricing } = dto.pricing;
  return {
    test_license: { ...current.test_license, ...withoutUndefined(dto.test_license) },
    pricing: { ...current.pricing, ...withoutUndefined(pricing), price_per_device_cents: toCents(price_per_device) },
    app_info: { ...current.app_info, ...withoutUndefined(dto.app_info) },
    features: { ...current.features, ...withoutUndefined(dto.features) },
    license_server: {
      url: dto.license_server.url.replace(/\/+$/, ''),
      timeout_seconds: dto.license_server.timeout_seconds,
      api_token: dto.license_server.api_token === undefined ? current.license_server.api_token : dto.license_server.api_token.trim(),
    },
  };
}

/** An optional field left out of a PUT keeps its stored value (DTO instances carry it as undefined). */
const withoutUndefined = <T extends object>(group: T): Partial<T> =>
  Object.fromEntries(Object.entries(group).filter(([, value]) => value !== undefined)) as Partial<T>;

/** Rules across fields, which the per-field bounds cannot express. */
function checkAgreement(groups: SettingsGroups): void {
  const { min_duration_months, max_duration_months } = groups.pricing;
  if (min_duration_months > max_duration_months) {
    const message = 'pricing.min_duration_months must not be above pricing.max_duration_months';
    throw ApiError.badRequest(message, { 'pricing.min_duration_months': [message] });
  }
}
