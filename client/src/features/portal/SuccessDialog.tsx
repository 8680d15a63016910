import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { ReactNode, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';

/** What a success dialog says: a title and, optionally, the details. */
export interface SuccessContent {
  title: ReactNode;
  body?: ReactNode;
}

interface SuccessDialogProps {
  content: SuccessContent | null;
  onClose: () => void;
}

/** The dashboard's success dialogs (License Downloaded, Test License Created, ...), each closed with OK. */
export function SuccessDialog({ content: asked, onClose }: SuccessDialogProps) {
  const intl = useIntl();
  // The last content stays while the dialog fades out: emptied at once, the closing dialog would lose its title
  // (its accessible name) and flash blank.
  const [last, setLast] = useState(asked);
  if (asked && asked !== last) setLast(asked);
  const content = asked ?? last;
  return (
    <Modal
      opened={!!asked}
      onClose={onClose}
      onExitTransitionEnd={() => setLast(null)}
      centered
      title={
        content && (
          // The modal title is already a heading: inline content only.
          <Group component="span" gap="xs" wrap="nowrap" fz="lg" fw={600}>
            <IconCircleCheck size={26} color="var(--mantine-color-green-7)" aria-hidden />
            <span>{content.title}</span>
          </Group>
        )
      }
      closeButtonProps={{ 'aria-label': intl.formatMessage({ id: 'common.close' }) }}
    >
      {content && (
        <Stack gap="md" data-testid="success-dialog">
          {content.body && (
            <Text component="div" fz="sm" w="100%">
              {content.body}
            </Text>
          )}
          <Group justify="flex-end">
            <Button onClick={onClose} miw={100} data-autofocus>
              <FormattedMessage id="licenses.success.ok" />
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
