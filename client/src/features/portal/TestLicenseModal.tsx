import { Alert, Button, Group, Modal, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { IconInfoCircle } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { getListMyLicensesQueryKey, useCreateLicense } from '../../api/generated/endpoints/licenses/licenses';
import type { LicenseDto, PublicTestLicenseSettingsDto } from '../../api/generated/model';
import { applyFieldErrors } from '../../lib/field-errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { localizeServerMessage } from '../../lib/server-messages';
import { ProductOptions, ProductSelect } from './ProductSelect';

interface TestLicenseModalProps {
  opened: boolean;
  onClose: () => void;
  products: ProductOptions;
  testLicense: PublicTestLicenseSettingsDto;
  onCreated: (license: LicenseDto) => void;
}

/** Request Test License: a product; duration and devices are the server's test-license settings. */
export function TestLicenseModal({ opened, onClose, products, testLicense, onCreated }: TestLicenseModalProps) {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const create = useCreateLicense();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<{ product: string | null }>({
    initialValues: { product: products.choices.length === 1 ? products.choices[0] : null },
    validate: { product: (value) => (value ? null : intl.formatMessage({ id: 'licenses.form.productRequired' })) },
  });

  // The only product is chosen for the customer, also when the choices arrive after the modal opened.
  const onlyChoice = products.choices.length === 1 ? products.choices[0] : null;
  useEffect(() => {
    if (onlyChoice && !form.values.product) form.setFieldValue('product', onlyChoice);
    // Only when the choices change: `form` is new on every render, and a product the customer cleared stays cleared.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [onlyChoice]);

  const close = () => {
    setFailure(null);
    form.reset();
    onClose();
  };

  const submit = form.onSubmit(async ({ product }) => {
    setFailure(null);
    try {
      const response = await create.mutateAsync({ data: { product_name: product!, license_type: 'trial' } });
      await queryClient.invalidateQueries({ queryKey: getListMyLicensesQueryKey().slice(0, 1) });
      form.reset();
      onCreated(response.data.license);
    } catch (error) {
      const message = localizeServerMessage(intl, (error as Error).message);
      applyFieldErrors(form, error, { fields: { product_name: 'product' } });
      setFailure(intl.formatMessage({ id: 'licenses.errors.trial' }, { message }));
    }
  });

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={intl.formatMessage({ id: 'licenses.testModal.title' })}
      closeButtonProps={{ 'aria-label': intl.formatMessage({ id: 'common.close' }) }}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {failure && <ErrorAlert onClose={() => setFailure(null)}>{failure}</ErrorAlert>}
          <ProductSelect products={products} {...form.getInputProps('product')} />
          <Alert color="blue" variant="light" role="note" icon={<IconInfoCircle size={18} />} data-testid="test-license-info">
            <FormattedMessage id="licenses.testModal.info" values={{ days: testLicense.duration_days, devices: testLicense.max_devices }} />
          </Alert>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              <FormattedMessage id="common.cancel" />
            </Button>
            <Button type="submit" loading={create.isPending} disabled={products.choices.length === 0}>
              <FormattedMessage id="licenses.testModal.submit" />
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
