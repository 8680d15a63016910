import { Divider, Group, NumberInput, SimpleGrid, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useIntl } from 'react-intl';
import type { LicenseRequestResultDto, PublicPricingSettingsDto } from '../../api/generated/model';
import type { DialogProps } from '../../components/FormModal';
import { formatMoney } from '../../i18n/format';
import { countValue, DEVICES_MIN, devicesValid, licenseTotal, maxDevices, maxMonths, minMonths, monthsValid } from './license-pricing';
import { firstProduct, LicenseRequestModal, ProductOptions } from './ProductSelect';
import { MessageText } from '../../components/Message';

type PurchaseLicenseModalProps = DialogProps<'onPurchased', LicenseRequestResultDto> & {
  products: ProductOptions;
  pricing: PublicPricingSettingsDto;
};

interface PurchaseValues {
  product: string | null;
  devices: number | string;
  months: number | string;
}

/** Purchase License: product, devices and months, the server's price per device and a live Total. */
export function PurchaseLicenseModal({ onClose, products, pricing, onPurchased }: PurchaseLicenseModalProps) {
  const intl = useIntl();
  const deviceMax = maxDevices(pricing);
  const monthMin = minMonths(pricing);
  const monthMax = maxMonths(pricing);
  const form = useForm<PurchaseValues>({
    initialValues: { product: firstProduct(products), devices: 1, months: monthMin },
    validateInputOnChange: ['devices', 'months'],
    validate: {
      product: (value) => (value ? null : intl.formatMessage({ id: 'licenses.form.productRequired' })),
      devices: (value) =>
        devicesValid(countValue(value), pricing) ? null : intl.formatMessage({ id: 'licenses.form.devicesError' }, { max: deviceMax }),
      months: (value) =>
        monthsValid(countValue(value), pricing)
          ? null
          : intl.formatMessage({ id: 'licenses.form.monthsError' }, { min: monthMin, max: monthMax }),
    },
  });

  const devices = countValue(form.values.devices);
  const months = countValue(form.values.months);
  const valid = devicesValid(devices, pricing) && monthsValid(months, pricing);
  const money = (amount: number) => formatMoney(intl, amount, pricing.currency);

  // Devices and months: whole numbers in the server's range, named with it.
  const countField = (field: 'devices' | 'months', min: number, max: number) => (
    <NumberInput
      label={intl.formatMessage({ id: field === 'devices' ? 'licenses.form.devices' : 'licenses.form.months' })}
      description={intl.formatMessage({ id: 'licenses.form.range' }, { min, max })}
      min={min}
      max={max}
      allowDecimal={false}
      allowNegative={false}
      clampBehavior="none"
      required
      {...form.getInputProps(field)}
    />
  );

  return (
    <LicenseRequestModal
      title="licenses.purchaseModal.title"
      onClose={onClose}
      form={form}
      products={products}
      failure="licenses.errors.purchase"
      fields={{ product_name: 'product', max_activations: 'devices', duration_months: 'months' }}
      body={(values) => ({
        product_name: values.product!,
        license_type: 'paid',
        max_activations: countValue(values.devices),
        duration_months: countValue(values.months),
      })}
      done={onPurchased}
    >
      <SimpleGrid cols={{ base: 1, xs: 2 }}>
        {countField('devices', DEVICES_MIN, deviceMax)}
        {countField('months', monthMin, monthMax)}
      </SimpleGrid>
      <Divider />
      <Group justify="space-between" fz="sm">
        <MessageText fz="sm" c="dimmed" message="licenses.form.pricePerDevice" />
        <Text fz="sm" data-testid="purchase-unit-price">
          {money(pricing.price_per_device)}
        </Text>
      </Group>
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <div>
          <MessageText fw={700} message="licenses.form.total" />
          {valid && (
            <MessageText
              fz="xs"
              c="dimmed"
              message="licenses.form.totalFormula"
              values={{ devices, months, price: money(pricing.price_per_device) }}
            />
          )}
        </div>
        <Text fw={700} fz="xl" data-testid="purchase-total" aria-live="polite">
          {valid ? money(licenseTotal(devices, months, pricing.price_per_device)) : '—'}
        </Text>
      </Group>
    </LicenseRequestModal>
  );
}
