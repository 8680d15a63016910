import { Button, Divider, Group, Modal, NumberInput, SimpleGrid, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { getListMyLicensesQueryKey, useCreateLicense } from '../../api/generated/endpoints/licenses/licenses';
import type { LicenseRequestResultDto, PublicPricingSettingsDto } from '../../api/generated/model';
import { applyFieldErrors } from '../../lib/field-errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { localizeServerMessage } from '../../lib/server-messages';
import {
  countValue,
  DEVICES_MIN,
  devicesValid,
  formatMoney,
  licenseTotal,
  maxDevices,
  maxMonths,
  minMonths,
  monthsValid,
} from './license-pricing';
import { ProductOptions, ProductSelect } from './ProductSelect';

interface PurchaseLicenseModalProps {
  opened: boolean;
  onClose: () => void;
  products: ProductOptions;
  pricing: PublicPricingSettingsDto;
  onPurchased: (result: LicenseRequestResultDto) => void;
}

interface PurchaseValues {
  product: string | null;
  devices: number | string;
  months: number | string;
}

/** Purchase License: product, devices and months, the server's price per device and a live Total. */
export function PurchaseLicenseModal({ opened, onClose, products, pricing, onPurchased }: PurchaseLicenseModalProps) {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const create = useCreateLicense();
  const [failure, setFailure] = useState<string | null>(null);
  const deviceMax = maxDevices(pricing);
  const monthMin = minMonths(pricing);
  const monthMax = maxMonths(pricing);
  const form = useForm<PurchaseValues>({
    initialValues: { product: products.choices.length === 1 ? products.choices[0] : null, devices: 1, months: monthMin },
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
  const money = (amount: number) => formatMoney(amount, pricing.currency, intl.locale);

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

  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      // Only what the customer chose: the server prices it from its own settings.
      const response = await create.mutateAsync({
        data: {
          product_name: values.product!,
          license_type: 'paid',
          max_activations: countValue(values.devices),
          duration_months: countValue(values.months),
        },
      });
      await queryClient.invalidateQueries({ queryKey: getListMyLicensesQueryKey().slice(0, 1) });
      form.reset();
      onPurchased(response.data);
    } catch (error) {
      const message = localizeServerMessage(intl, (error as Error).message);
      applyFieldErrors(form, error, { fields: { product_name: 'product', max_activations: 'devices', duration_months: 'months' } });
      setFailure(intl.formatMessage({ id: 'licenses.errors.purchase' }, { message }));
    }
  });

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={intl.formatMessage({ id: 'licenses.purchaseModal.title' })}
      closeButtonProps={{ 'aria-label': intl.formatMessage({ id: 'common.close' }) }}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {failure && <ErrorAlert onClose={() => setFailure(null)}>{failure}</ErrorAlert>}
          <ProductSelect products={products} {...form.getInputProps('product')} />
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <NumberInput
              label={intl.formatMessage({ id: 'licenses.form.devices' })}
              description={intl.formatMessage({ id: 'licenses.form.range' }, { min: DEVICES_MIN, max: deviceMax })}
              min={DEVICES_MIN}
              max={deviceMax}
              allowDecimal={false}
              allowNegative={false}
              clampBehavior="none"
              required
              {...form.getInputProps('devices')}
            />
            <NumberInput
              label={intl.formatMessage({ id: 'licenses.form.months' })}
              description={intl.formatMessage({ id: 'licenses.form.range' }, { min: monthMin, max: monthMax })}
              min={monthMin}
              max={monthMax}
              allowDecimal={false}
              allowNegative={false}
              clampBehavior="none"
              required
              {...form.getInputProps('months')}
            />
          </SimpleGrid>
          <Divider />
          <Group justify="space-between" fz="sm">
            <Text fz="sm" c="dimmed">
              <FormattedMessage id="licenses.form.pricePerDevice" />
            </Text>
            <Text fz="sm" data-testid="purchase-unit-price">
              {money(pricing.price_per_device)}
            </Text>
          </Group>
          <Group justify="space-between" align="flex-start" wrap="nowrap">
            <div>
              <Text fw={700}>
                <FormattedMessage id="licenses.form.total" />
              </Text>
              {valid && (
                <Text fz="xs" c="dimmed">
                  <FormattedMessage id="licenses.form.totalFormula" values={{ devices, months, price: money(pricing.price_per_device) }} />
                </Text>
              )}
            </div>
            <Text fw={700} fz="xl" data-testid="purchase-total" aria-live="polite">
              {valid ? money(licenseTotal(devices, months, pricing.price_per_device)) : '—'}
            </Text>
          </Group>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              <FormattedMessage id="common.cancel" />
            </Button>
            <Button type="submit" loading={create.isPending} disabled={products.choices.length === 0}>
              <FormattedMessage id="licenses.purchaseModal.submit" />
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
