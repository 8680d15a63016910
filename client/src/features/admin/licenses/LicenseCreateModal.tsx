import { Button, NumberInput, Select, SimpleGrid, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconWand } from '@tabler/icons-react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useCreateAdminLicense, useGenerateLicenseKey, useListAvailableVersions } from '../../../api/generated/endpoints/licenses/licenses';
import type { AdminLicenseDto, VersionChannel } from '../../../api/generated/model';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { DialogProps, FormModal } from '../../../components/FormModal';
import { useFormSubmit } from '../../../components/use-form-submit';
import { emailError } from '../../../lib/email';
import { maxActivationsOf } from './license-display';
import { ReleaseAccessFields } from './LicenseAccessModal';
import { useField } from '../../../components/use-field';

interface FormValues {
  product_name: string | null;
  user_email: string;
  expires_at: string;
  max_activations: number | string;
  license_key: string;
  channel: VersionChannel;
  updates_until: string;
}

/** Today as YYYY-MM-DD in the browser's time zone: the earliest date the picker offers. */
const today = () => {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
};

/** Create License: product tier, licensee e-mail, expiry, max activations and an optional key (admin spec section 5). */
export function LicenseCreateModal({ onClose, onCreated }: DialogProps<'onCreated', AdminLicenseDto>) {
  const intl = useIntl();
  const products = useListAvailableVersions();
  const create = useCreateAdminLicense();
  const generate = useGenerateLicenseKey();
  const form = useForm<FormValues>({
    initialValues: {
      product_name: null,
      user_email: '',
      expires_at: '',
      max_activations: 1,
      license_key: '',
      channel: 'stable',
      updates_until: '',
    },
    validate: {
      product_name: (value) => (value ? null : intl.formatMessage({ id: 'adminLicenses.form.productRequired' })),
      user_email: (value) => emailError(intl, value, 'adminLicenses.form.emailRequired'),
      expires_at: (value) => (value ? null : intl.formatMessage({ id: 'adminLicenses.form.expiresRequired' })),
      max_activations: (value) => (maxActivationsOf(value) < 1 ? intl.formatMessage({ id: 'adminLicenses.form.maxActivationsMin' }) : null),
    },
  });
  const field = useField(form);

  const submit = useFormSubmit(form, {
    failure: 'adminLicenses.errors.create',
    send: async (values) => {
      const response = await create.mutateAsync({
        data: {
          product_name: values.product_name ?? '',
          user_email: values.user_email.trim(),
          expires_at: values.expires_at,
          max_activations: maxActivationsOf(values.max_activations),
          license_key: values.license_key.trim() || undefined,
          channel: values.channel,
          updates_until: values.updates_until || null,
        },
      });
      onClose();
      onCreated(response.data);
    },
  });

  const generateKey = async () => {
    submit.dismiss();
    try {
      const response = await generate.mutateAsync();
      form.setFieldValue('license_key', response.data.license_key);
      form.clearFieldError('license_key');
    } catch (error) {
      submit.fail(intl.formatMessage({ id: 'adminLicenses.errors.generate' }, { message: (error as Error).message }));
    }
  };

  return (
    <FormModal onClose={onClose} title="adminLicenses.form.title" submit={submit} saving={create.isPending}>
      {products.error && (
        <ErrorAlert onRetry={() => products.refetch()}>
          {intl.formatMessage({ id: 'adminLicenses.errors.products' }, { message: products.error.message })}
        </ErrorAlert>
      )}
      <Select
        placeholder={intl.formatMessage({ id: 'adminLicenses.form.productPlaceholder' })}
        required
        data={products.data?.data.products ?? []}
        disabled={products.isLoading}
        allowDeselect={false}
        {...field('product_name', 'adminLicenses.form.product')}
      />
      <TextInput type="email" required autoComplete="off" {...field('user_email', 'adminLicenses.form.email')} />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput type="date" required min={today()} {...field('expires_at', 'adminLicenses.form.expires')} />
        <NumberInput
          min={1}
          max={10000}
          allowDecimal={false}
          allowNegative={false}
          {...field('max_activations', 'adminLicenses.form.maxActivations')}
        />
      </SimpleGrid>
      <ReleaseAccessFields
        channel={field('channel', 'adminLicenses.form.channel')}
        updatesUntil={field('updates_until', 'adminLicenses.form.updatesUntil')}
      />
      <TextInput
        description={intl.formatMessage({ id: 'adminLicenses.form.keyHint' })}
        placeholder="SH-XXXXX-XXXXX-XXXXX-XXXXX-XXXXX"
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        autoComplete="off"
        rightSectionWidth={118}
        rightSectionPointerEvents="all"
        rightSection={
          <Button size="compact-sm" variant="light" leftSection={<IconWand size={14} />} loading={generate.isPending} onClick={generateKey}>
            <FormattedMessage id="adminLicenses.form.generate" />
          </Button>
        }
        {...field('license_key', 'adminLicenses.form.key')}
      />
    </FormModal>
  );
}
