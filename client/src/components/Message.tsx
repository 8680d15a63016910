import { Text, type TextProps, Title, type TitleProps } from '@mantine/core';
import type { ComponentProps, HTMLAttributes } from 'react';
import { FormattedMessage } from 'react-intl';
import type { MessageId } from '../i18n/message-id';

type Catalog = { message: MessageId; values?: ComponentProps<typeof FormattedMessage>['values'] };

/** A paragraph holding one catalog text. */
export function MessageText({ message, values, ...props }: TextProps & HTMLAttributes<HTMLParagraphElement> & Catalog) {
  return (
    <Text {...props}>
      <FormattedMessage id={message} values={values} />
    </Text>
  );
}

/** A heading holding one catalog text. */
export function MessageTitle({ message, values, ...props }: TitleProps & Catalog) {
  return (
    <Title {...props}>
      <FormattedMessage id={message} values={values} />
    </Title>
  );
}
