import { Select, type SelectProps } from '@mantine/core';
import { useIntl } from 'react-intl';
import { CHANNELS } from '../lib/channels';

/** A release channel: a version's, or the one a license or customer is granted (which includes every channel before it). */
export function ChannelSelect(props: Omit<SelectProps, 'data'>) {
  const intl = useIntl();
  return (
    <Select
      allowDeselect={false}
      data={CHANNELS.map((value) => ({ value, label: intl.formatMessage({ id: `admin.versions.channel.${value}` }) }))}
      {...props}
    />
  );
}
