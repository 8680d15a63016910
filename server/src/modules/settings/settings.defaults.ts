/** The spec's defaults for every settings group; stored on first start, and used for any group missing later. */
export const DEFAULT_SETTINGS = {
  test_license: {
    enabled: true,
    duration_days: 7,
    max_devices: 1,
    max_per_user: 1,
    description: 'Try the full streaming server free for 7 days on one device.',
    description_de: 'Testen Sie den vollständigen Streaming-Server 7 Tage lang kostenlos auf einem Gerät.',
  },
  pricing: {
    price_per_device_cents: 1000,
    currency: 'USD',
    min_duration_months: 1,
    max_duration_months: 12,
    max_devices: 100,
    description: 'Per device, per month. Volume pricing on request.',
    description_de: 'Pro Gerät und Monat. Mengenpreise auf Anfrage.',
  },
  app_info: {
    name: 'StreamHub',
    version: '1.0.0',
    description: 'Licensing and distribution portal for the StreamHub streaming server.',
    support_email: 'support@example.com',
    website: 'https://example.com',
    /** The oldest release servers may run ('' for none): validate tells older ones update_required. */
    min_supported_version: '',
  },
  features: {
    test_license_enabled: true,
    purchase_license_enabled: true,
    multiple_devices_supported: true,
    license_transfer_enabled: true,
    /** On: every customer download needs a license that covers the release (off: published stable builds are open to try). */
    downloads_require_license: false,
  },
  license_server: {
    url: '',
    api_token: '',
    timeout_seconds: 30,
  },
};

export type SettingsGroups = typeof DEFAULT_SETTINGS;
export type SettingsGroupKey = keyof SettingsGroups;
