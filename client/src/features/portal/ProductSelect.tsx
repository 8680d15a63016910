import { Alert, Loader, Select, SelectProps } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { ReactNode, useEffect } from 'react';
import { IconInfoCircle } from '@tabler/icons-react';
import { FormattedMessage, useIntl } from 'react-intl';
import { getListMyLicensesQueryKey, useCreateLicense } from '../../api/generated/endpoints/licenses/licenses';
import { ErrorAlert } from '../../components/ErrorAlert';
import { FormModal } from '../../components/FormModal';
import { useFormSubmit } from '../../components/use-form-submit';
import type { MessageId } from '../../i18n/message-id';
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

/** A license form's values: the product, and the dialog's own. */
type ProductValues = { product: string | null };

/** The product a license form starts with: the only one there is, else none. */
export const firstProduct = (products: ProductOptions) => (products.choices.length === 1 ? products.choices[0] : null);

/** Chooses the only product for the customer, also when the choices arrive after the form opened. */
function useOnlyProductChosen<V extends ProductValues>(form: UseFormReturnType<V>, products: ProductOptions) {
  const onlyChoice = firstProduct(products);
  useEffect(() => {
    if (onlyChoice && !form.values.product) form.setValues({ product: onlyChoice } as Partial<V>);
    // Only when the choices change: `form` is new on every render, and a product the customer cleared stays cleared.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [onlyChoice]);
}

type LicenseRequestBody = Parameters<ReturnType<typeof useCreateLicense>['mutateAsync']>[0]['data'];
type LicenseRequestResult = Awaited<ReturnType<ReturnType<typeof useLicenseRequest>['send']>>;

/** Asks for a license (a trial or a purchase); My Licenses shows it once the answer is in. */
function useLicenseRequest() {
  const queryClient = useQueryClient();
  const create = useCreateLicense();
  return {
    pending: create.isPending,
    send: async (data: LicenseRequestBody) => {
      const response = await create.mutateAsync({ data });
      await queryClient.invalidateQueries({ queryKey: getListMyLicensesQueryKey().slice(0, 1) });
      return response.data;
    },
  };
}

interface LicenseRequestOptions<V> {
  title: 'licenses.purchaseModal.title' | 'licenses.testModal.title';
  onClose: () => void;
  children: ReactNode;
  form: UseFormReturnType<V>;
  products: ProductOptions;
  failure: MessageId;
  /** Server field name → form field name, where they differ. */
  fields: Record<string, string>;
  /** What the customer chose, as the request's body: the server prices and sizes it from its own settings. */
  body: (values: V) => LicenseRequestBody;
  /** After the license request succeeded and the dialog closed. */
  done: (answer: LicenseRequestResult) => void;
}

/** Both license dialogs: the product first, the dialog's own fields after; sent, it resets, closes and says so. */
export function LicenseRequestModal<V extends ProductValues>(options: LicenseRequestOptions<V>) {
  const { form, products, onClose, title, children } = options;
  const request = useLicenseRequest();
  useOnlyProductChosen(form, products);
  const submit = useFormSubmit(form, {
    failure: options.failure,
    fields: options.fields,
    send: async (values) => {
      const answer = await request.send(options.body(values));
      form.reset();
      onClose();
      options.done(answer);
    },
  });
  return (
    <FormModal
      size="md"
      onClose={onClose}
      title={title}
      submit={submit}
      saving={request.pending}
      submitDisabled={products.choices.length === 0}
    >
      <ProductSelect products={products} {...form.getInputProps('product')} />
      {children}
    </FormModal>
  );
}
