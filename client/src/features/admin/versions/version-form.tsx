import { Divider, Group, Select, SimpleGrid, Switch, Textarea, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { IntlShape } from 'react-intl';
import { useIntl } from 'react-intl';
import type { VersionChannel, VersionState } from '../../../api/generated/model';
import { isHttpUrl, isJsonObjectText, orNull, VERSION_PATTERN } from './version-display';
import { ChannelSelect } from '../../../components/ChannelSelect';
import { useField } from '../../../components/use-field';

/** The fields the Upload and Edit forms share (admin spec section 5). */
export interface VersionFormValues {
  version: string;
  release_date: string;
  changelog: string;
  download_url: string;
  secret_hash: string;
  encryption_key: string;
  min_system_requirements: string;
  channel: VersionChannel;
  state: VersionState;
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
  channel: 'stable',
  state: 'published',
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
  const field = useField(f);
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput placeholder="2.1.0" required autoComplete="off" {...field('version', 'admin.versions.form.version')} />
        <TextInput type="date" required {...field('release_date', 'admin.versions.form.releaseDate')} />
      </SimpleGrid>
      <Textarea
        placeholder={intl.formatMessage({ id: 'admin.versions.form.changelogPlaceholder' })}
        autosize
        minRows={3}
        maxRows={8}
        {...field('changelog', 'admin.versions.form.changelog')}
      />
      <TextInput
        placeholder="https://downloads.example.com/streamhub-2.1.0.zip"
        type="url"
        autoComplete="off"
        {...field('download_url', 'admin.versions.form.downloadUrl')}
      />

      <Divider label={intl.formatMessage({ id: 'admin.versions.form.keysSection' })} labelPosition="left" />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          autoComplete="off"
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          {...field('secret_hash', 'admin.versions.form.secretHash')}
        />
        <TextInput
          autoComplete="off"
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          {...field('encryption_key', 'admin.versions.form.encryptionKey')}
        />
      </SimpleGrid>
      <Textarea
        description={intl.formatMessage({ id: 'admin.versions.form.requirementsHint' })}
        placeholder='{"os": "Ubuntu 22.04", "ram": "4 GB", "storage": "10 GB"}'
        autosize
        minRows={2}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        {...field('min_system_requirements', 'admin.versions.form.requirements')}
      />

      <Divider label={intl.formatMessage({ id: 'admin.versions.form.flagsSection' })} labelPosition="left" />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <ChannelSelect {...field('channel', 'admin.versions.form.channel')} />
        <Select
          allowDeselect={false}
          // Yanking is a row action of its own; the form offers it only to keep a yanked version as it is.
          data={(f.values.state === 'yanked' ? (['draft', 'published', 'yanked'] as const) : (['draft', 'published'] as const)).map(
            (value) => ({ value, label: intl.formatMessage({ id: `admin.versions.state.${value}` }) }),
          )}
          {...field('state', 'admin.versions.form.state')}
        />
      </SimpleGrid>
      <Group gap="xl">
        <Switch
          description={latestLocked ? intl.formatMessage({ id: 'admin.versions.flags.latestHint' }) : undefined}
          disabled={latestLocked}
          {...field('is_latest', 'admin.versions.form.latest', { type: 'checkbox' })}
        />
        <Switch {...field('sync', 'admin.versions.form.sync', { type: 'checkbox' })} />
      </Group>
    </>
  );
}
