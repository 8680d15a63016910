import { Alert, Loader, Select, SelectProps } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { FormattedMessage, useIntl } from 'react-intl';
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
