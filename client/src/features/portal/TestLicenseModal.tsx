import { Alert } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconInfoCircle } from '@tabler/icons-react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { LicenseDto, PublicTestLicenseSettingsDto } from '../../api/generated/model';
import { DialogProps, FormModal } from '../../components/FormModal';
import { useFormSubmit } from '../../components/use-form-submit';
import { firstProduct, ProductOptions, ProductSelect, useLicenseRequest, useOnlyProductChosen } from './ProductSelect';

type TestLicenseModalProps = DialogProps<'onCreated', LicenseDto> & { products: ProductOptions; testLicense: PublicTestLicenseSettingsDto };

/** Request Test License: a product; duration and devices are the server's test-license settings. */
export function TestLicenseModal({ onClose, products, testLicense, onCreated }: TestLicenseModalProps) {
  const intl = useIntl();
  const request = useLicenseRequest();
  const form = useForm<{ product: string | null }>({
    initialValues: { product: firstProduct(products) },
    validate: { product: (value) => (value ? null : intl.formatMessage({ id: 'licenses.form.productRequired' })) },
  });
  useOnlyProductChosen(form, products);
  const submit = useFormSubmit(form, {
    failure: 'licenses.errors.trial',
    fields: { product_name: 'product' },
    send: async ({ product }) => {
      const answer = await request.send({ product_name: product!, license_type: 'trial' });
      form.reset();
      onClose();
      onCreated(answer.license);
    },
  });

  return (
    <FormModal
      onClose={onClose}
      title="licenses.testModal.title"
      submit={submit}
      submitLabel="licenses.testModal.submit"
      saving={request.pending}
      submitDisabled={products.choices.length === 0}
    >
      <ProductSelect products={products} {...form.getInputProps('product')} />
      <Alert color="blue" variant="light" role="note" icon={<IconInfoCircle size={18} />} data-testid="test-license-info">
        <FormattedMessage id="licenses.testModal.info" values={{ days: testLicense.duration_days, devices: testLicense.max_devices }} />
      </Alert>
    </FormModal>
  );
}
