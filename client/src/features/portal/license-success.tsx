import { Code, Table } from '@mantine/core';
import { ReactNode } from 'react';
import { FormattedDate, FormattedMessage } from 'react-intl';
import type { LicenseDto, LicenseRequestResultDto } from '../../api/generated/model';
import { Money } from '../../components/Money';
import type { SuccessContent } from './SuccessDialog';

function Details({ rows }: { rows: Array<[ReactNode, ReactNode]> }) {
  return (
    <Table fz="sm" withRowBorders={false} verticalSpacing={4} data-testid="success-details">
      <Table.Tbody>
        {rows.map(([label, value], index) => (
          <Table.Tr key={index}>
            <Table.Th w="40%" fw={500} c="dimmed">
              {label}
            </Table.Th>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

export const licenseDownloaded = (): SuccessContent => ({
  title: <FormattedMessage id="licenses.success.downloaded.title" />,
  body: <FormattedMessage id="licenses.success.downloaded.text" />,
});

export const commandCopied = (): SuccessContent => ({
  title: <FormattedMessage id="licenses.success.commandCopied.title" />,
  body: <FormattedMessage id="licenses.success.commandCopied.text" />,
});

export const testLicenseCreated = (license: LicenseDto): SuccessContent => ({
  title: <FormattedMessage id="licenses.success.trial.title" />,
  body: (
    <Details
      rows={[
        [<FormattedMessage id="licenses.form.product" />, license.product_name],
        [<FormattedMessage id="licenses.fields.key" />, <Code>{license.license_key}</Code>],
        [<FormattedMessage id="licenses.fields.expires" />, <FormattedDate value={license.expires_at} dateStyle="medium" />],
        [<FormattedMessage id="licenses.fields.devices" />, license.max_activations],
      ]}
    />
  ),
});

/** 'License Purchased Successfully!' with what the server charged: product, devices, duration and total. */
export const licensePurchased = ({ license, order }: LicenseRequestResultDto): SuccessContent => ({
  title: <FormattedMessage id="licenses.success.purchase.title" />,
  body: (
    <Details
      rows={[
        [<FormattedMessage id="licenses.form.product" />, license.product_name],
        [<FormattedMessage id="licenses.fields.devices" />, order?.devices ?? license.max_activations],
        ...(order
          ? ([
              [
                <FormattedMessage id="licenses.success.purchase.duration" />,
                <FormattedMessage id="licenses.success.purchase.months" values={{ months: order.months }} />,
              ],
              [<FormattedMessage id="licenses.form.total" />, <Money amount={order.amount} currency={order.currency} />],
            ] as Array<[ReactNode, ReactNode]>)
          : []),
        [<FormattedMessage id="licenses.fields.key" />, <Code>{license.license_key}</Code>],
      ]}
    />
  ),
});
