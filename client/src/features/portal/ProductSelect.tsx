import { Alert, Loader, Select, SelectProps } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { IconInfoCircle } from '@tabler/icons-react';
import { FormattedMessage, useIntl } from 'react-intl';
import { getListMyLicensesQueryKey, useCreateLicense } from '../../api/generated/endpoints/licenses/licenses';
import { ErrorAlert } from '../../components/ErrorAlert';
import { localizeServerMessage } from '../../lib/server-messages';

/** The product choices of both license modals, and where their loading stands. */
export interface ProductOptions {
  choices: string[];
  loading: boolean;
  error: Error | null;
  retry: () => void;
}

type ProductSelectProps = { products: ProductOptions } & Pick<SelectProps, 'value' | 'onChange' | 'error' | 'onFocus' | 'onBlur'>;

/** The Product select; while loading, on failure and with nothing to choose it says so instead of showing an empty list. */
export function ProductSelect({ products, ...input }: ProductSelectProps) {
  const intl = useIntl();
  const label = intl.formatMessage({ id: 'licenses.form.product' });
  if (products.error) {
    return (
      <ErrorAlert onRetry={products.retry}>
        {intl.formatMessage({ id: 'dashboard.errors.load' }, { message: localizeServerMessage(intl, products.error.message) })}
      </ErrorAlert>
    );
  }
  if (products.loading) {
    return (
      <Select
        label={label}
        placeholder={intl.formatMessage({ id: 'licenses.form.productsLoading' })}
        data={[]}
        disabled
        rightSection={<Loader size="xs" />}
      />
    );
  }
  if (products.choices.length === 0) {
    return (
      <Alert color="yellow" variant="light" role="note" icon={<IconInfoCircle size={18} />} data-testid="no-products">
        <FormattedMessage id="licenses.form.noProducts" />
      </Alert>
    );
  }
  return (
    <Select
      label={label}
      placeholder={intl.formatMessage({ id: 'licenses.form.productPlaceholder' })}
      data={products.choices}
      {...input}
      required
      allowDeselect={false}
      comboboxProps={{ withinPortal: true }}
    />
  );
}

/** The product a license form starts with: the only one there is, else none. */
export const firstProduct = (products: ProductOptions) => (products.choices.length === 1 ? products.choices[0] : null);

/** Chooses the only product for the customer, also when the choices arrive after the form opened. */
export function useOnlyProductChosen(form: UseFormReturnType<{ product: string | null }>, products: ProductOptions) {
  const onlyChoice = firstProduct(products);
  useEffect(() => {
    if (onlyChoice && !form.values.product) form.setFieldValue('product', onlyChoice);
    // Only when the choices change: `form` is new on every render, and a product the customer cleared stays cleared.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [onlyChoice]);
}

/** Asks for a license (a trial or a purchase); My Licenses shows it once the answer is in. */
export function useLicenseRequest() {
  const queryClient = useQueryClient();
  const create = useCreateLicense();
  return {
    pending: create.isPending,
    send: async (data: Parameters<typeof create.mutateAsync>[0]['data']) => {
      const response = await create.mutateAsync({ data });
      await queryClient.invalidateQueries({ queryKey: getListMyLicensesQueryKey().slice(0, 1) });
      return response.data;
    },
  };
}
