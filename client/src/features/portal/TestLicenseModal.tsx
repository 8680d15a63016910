import { Alert } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconInfoCircle } from '@tabler/icons-react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { LicenseDto, PublicTestLicenseSettingsDto } from '../../api/generated/model';
import type { DialogProps } from '../../components/FormModal';
import { firstProduct, LicenseRequestModal, ProductOptions } from './ProductSelect';

type TestLicenseModalProps = DialogProps<'onCreated', LicenseDto> & { products: ProductOptions; testLicense: PublicTestLicenseSettingsDto };

/** Request Test License: a product; duration and devices are the server's test-license settings. */
export function TestLicenseModal({ onClose, products, testLicense, onCreated }: TestLicenseModalProps) {
  const intl = useIntl();
  const form = useForm<{ product: string | null }>({
    initialValues: { product: firstProduct(products) },
    validate: { product: (value) => (value ? null : intl.formatMessage({ id: 'licenses.form.productRequired' })) },
  });
  return (
    <LicenseRequestModal
      title="licenses.testModal.title"
      onClose={onClose}
      form={form}
      products={products}
      failure="licenses.errors.trial"
      fields={{ product_name: 'product' }}
      body={({ product }) => ({ product_name: product!, license_type: 'trial' })}
      done={(answer) => onCreated(answer.license)}
    >
      <Alert color="blue" variant="light" role="note" icon={<IconInfoCircle size={18} />} data-testid="test-license-info">
        <FormattedMessage id="licenses.testModal.info" values={{ days: testLicense.duration_days, devices: testLicense.max_devices }} />
      </Alert>
    </LicenseRequestModal>
  );
}
