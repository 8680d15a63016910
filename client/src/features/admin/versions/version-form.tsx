import { Divider, Group, SimpleGrid, Switch, Textarea, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { IntlShape } from 'react-intl';
import { useIntl } from 'react-intl';
import { isHttpUrl, isJsonObjectText, orNull, VERSION_PATTERN } from './version-display';

/** The fields the Upload and Edit forms share (admin spec section 5). */
export interface VersionFormValues {
  version: string;
  release_date: string;
  changelog: string;
  download_url: string;
  secret_hash: string;
  encryption_key: string;
  min_system_requirements: string;
  is_stable: boolean;
  is_latest: boolean;
  sync: boolean;
}

export const EMPTY_VERSION_FORM: VersionFormValues = {
  version: '',
  release_date: '',
  changelog: '',
  download_url: '',
  secret_hash: '',
  encryption_key: '',
  min_system_requirements: '',
  is_stable: true,
  is_latest: false,
  sync: true,
};

/** The same rules and wording as the server, so most mistakes show before a round trip. */
export function versionFieldRules(intl: IntlShape) {
  return {
    version: (value: string) =>
      !value.trim()
        ? intl.formatMessage({ id: 'admin.versions.form.versionRequired' })
        : !VERSION_PATTERN.test(value.trim())
          ? intl.formatMessage({ id: 'admin.versions.form.versionFormat' })
          : null,
    release_date: (value: string) => (value ? null : intl.formatMessage({ id: 'admin.versions.form.releaseDateRequired' })),
    download_url: (value: string) =>
      value.trim() && !isHttpUrl(value) ? intl.formatMessage({ id: 'admin.versions.form.downloadUrlFormat' }) : null,
    min_system_requirements: (value: string) =>
      value.trim() && !isJsonObjectText(value) ? intl.formatMessage({ id: 'admin.versions.form.requirementsFormat' }) : null,
  };
}

/** The optional texts as both forms send them: blank is null ('not set'). */
export const optionalFields = (values: VersionFormValues) => ({
  changelog: orNull(values.changelog),
  download_url: orNull(values.download_url),
  secret_hash: orNull(values.secret_hash),
  encryption_key: orNull(values.encryption_key),
  min_system_requirements: orNull(values.min_system_requirements),
});

/** Server field names the version forms call otherwise. */
export const VERSION_FIELD_NAMES = { license_server_sync: 'sync', sync_to_license_server: 'sync' };

interface VersionFieldsProps<T extends VersionFormValues> {
  form: UseFormReturnType<T>;
  /** The edited version is the latest: it cannot be un-marked, only replaced. */
  latestLocked?: boolean;
}

/** Version, release date, changelog, download URL, keys, system requirements and the three switches. */
export function VersionFields<T extends VersionFormValues>({ form, latestLocked = false }: VersionFieldsProps<T>) {
  const intl = useIntl();
  const f = form as unknown as UseFormReturnType<VersionFormValues>;
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label={intl.formatMessage({ id: 'admin.versions.form.version' })}
          placeholder="2.1.0"
          required
          autoComplete="off"
          {...f.getInputProps('version')}
        />
        <TextInput
          label={intl.formatMessage({ id: 'admin.versions.form.releaseDate' })}
          type="date"
          required
          {...f.getInputProps('release_date')}
        />
      </SimpleGrid>
      <Textarea
        label={intl.formatMessage({ id: 'admin.versions.form.changelog' })}
        placeholder={intl.formatMessage({ id: 'admin.versions.form.changelogPlaceholder' })}
        autosize
        minRows={3}
        maxRows={8}
        {...f.getInputProps('changelog')}
      />
      <TextInput
        label={intl.formatMessage({ id: 'admin.versions.form.downloadUrl' })}
        placeholder="https://downloads.example.com/streamhub-2.1.0.zip"
        type="url"
        autoComplete="off"
        {...f.getInputProps('download_url')}
      />

      <Divider label={intl.formatMessage({ id: 'admin.versions.form.keysSection' })} labelPosition="left" />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label={intl.formatMessage({ id: 'admin.versions.form.secretHash' })}
          autoComplete="off"
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          {...f.getInputProps('secret_hash')}
        />
        <TextInput
          label={intl.formatMessage({ id: 'admin.versions.form.encryptionKey' })}
          autoComplete="off"
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          {...f.getInputProps('encryption_key')}
        />
      </SimpleGrid>
      <Textarea
        label={intl.formatMessage({ id: 'admin.versions.form.requirements' })}
        description={intl.formatMessage({ id: 'admin.versions.form.requirementsHint' })}
        placeholder='{"os": "Ubuntu 22.04", "ram": "4 GB", "storage": "10 GB"}'
        autosize
        minRows={2}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        {...f.getInputProps('min_system_requirements')}
      />

      <Divider label={intl.formatMessage({ id: 'admin.versions.form.flagsSection' })} labelPosition="left" />
      <Group gap="xl">
        <Switch label={intl.formatMessage({ id: 'admin.versions.form.stable' })} {...f.getInputProps('is_stable', { type: 'checkbox' })} />
        <Switch
          label={intl.formatMessage({ id: 'admin.versions.form.latest' })}
          description={latestLocked ? intl.formatMessage({ id: 'admin.versions.flags.latestHint' }) : undefined}
          disabled={latestLocked}
          {...f.getInputProps('is_latest', { type: 'checkbox' })}
        />
        <Switch label={intl.formatMessage({ id: 'admin.versions.form.sync' })} {...f.getInputProps('sync', { type: 'checkbox' })} />
      </Group>
    </>
  );
}
