import { Button, Group, MantineSize, Modal, Stack } from '@mantine/core';
import { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { MessageId } from '../i18n/message-id';
import { ErrorAlert } from './ErrorAlert';
import type { FormSubmit } from './use-form-submit';

/** A dialog's props: Close, and what it reports once done (after it has closed itself), e.g. `DialogProps<'onCreated', AdminLicenseDto>`. */
export type DialogProps<Done extends string, Result> = { onClose: () => void } & Record<Done, (result: Result) => void>;

type DialogOf<Id> = Id extends `${infer Dialog}.title` ? Dialog : never;
/** The title of a dialog whose Submit says `<dialog>.submit` ('adminLicenses.form.title' …). */
type FormTitle = { [D in DialogOf<MessageId>]: `${D}.submit` extends MessageId ? `${D}.title` : never }[DialogOf<MessageId>];

/** The title, and Submit's words: the title's `.submit` unless given. */
type FormTexts = { title: FormTitle; submitLabel?: MessageId } | { title: MessageId; submitLabel: MessageId };

type FormModalProps = FormTexts & {
  titleValues?: Record<string, string>;
  /** The dialog's width: lg unless told (the admin forms are wide). */
  size?: MantineSize;
  onClose: () => void;
  submit: FormSubmit;
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
};

/** A form in a dialog (open while it is shown): title, the failed submit's message, the fields, and Cancel and Submit. */
export function FormModal({
  title,
  titleValues,
  size = 'lg',
  onClose,
  submit,
  submitLabel = title.replace(/\.title$/, '.submit') as MessageId,
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
