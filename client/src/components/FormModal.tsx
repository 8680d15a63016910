import { Button, Group, MantineSize, Modal, Stack } from '@mantine/core';
import { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { MessageId } from '../i18n/message-id';
import { ErrorAlert } from './ErrorAlert';
import type { FormSubmit } from './use-form-submit';

/** A dialog's props: Close, and what it reports once done (after it has closed itself), e.g. `DialogProps<'onCreated', AdminLicenseDto>`. */
export type DialogProps<Done extends string, Result> = { onClose: () => void } & Record<Done, (result: Result) => void>;

interface FormModalProps {
  title: MessageId;
  titleValues?: Record<string, string>;
  size?: MantineSize;
  onClose: () => void;
  submit: FormSubmit;
  submitLabel: MessageId;
  submitIcon?: ReactNode;
  /** The submit is under way: its button spins. */
  saving: boolean;
  submitDisabled?: boolean;
  /** While true the dialog cannot be closed and Cancel waits (an upload under way). */
  locked?: boolean;
  /** The error banner next to the buttons, where the answer of a long form belongs, instead of at the top. */
  failureAtEnd?: boolean;
  /** The fields, and whatever the form shows between them. */
  children: ReactNode;
}

/** A form in a dialog (open while it is shown): title, the failed submit's message, the fields, and Cancel and Submit. */
export function FormModal({
  title,
  titleValues,
  size,
  onClose,
  submit,
  submitLabel,
  submitIcon,
  saving,
  submitDisabled,
  locked = false,
  failureAtEnd = false,
  children,
}: FormModalProps) {
  const intl = useIntl();
  const failure = submit.failure && <ErrorAlert onClose={submit.dismiss}>{submit.failure}</ErrorAlert>;
  return (
    <Modal
      opened
      onClose={() => {
        if (!locked) onClose();
      }}
      size={size}
      closeOnClickOutside={!locked}
      closeOnEscape={!locked}
      withCloseButton={!locked}
      closeButtonProps={{ 'aria-label': intl.formatMessage({ id: 'common.close' }) }}
      title={intl.formatMessage({ id: title }, titleValues)}
      styles={{ title: { fontSize: 'var(--mantine-font-size-lg)', fontWeight: 700 } }}
    >
      <form onSubmit={submit.onSubmit} noValidate>
        <Stack gap="md">
          {!failureAtEnd && failure}
          {children}
          {failureAtEnd && failure}
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose} disabled={locked}>
              <FormattedMessage id="common.cancel" />
            </Button>
            <Button type="submit" loading={saving} disabled={submitDisabled} leftSection={submitIcon}>
              <FormattedMessage id={submitLabel} />
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
