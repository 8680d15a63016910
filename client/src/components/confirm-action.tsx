import { Code, Stack } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { ReactNode } from 'react';
import type { IntlShape } from 'react-intl';
import type { MessageId } from '../i18n/message-id';
import { MessageText } from './Message';

interface ConfirmActionOptions {
  title: MessageId;
  /** What will happen, and to what. */
  children: ReactNode;
  /** The confirm button's words ('Delete License'). */
  confirm: MessageId;
  onConfirm: () => void;
  /** A red confirm button, for what cannot be undone or takes something away; true unless said otherwise. */
  destructive?: boolean;
}

/** Asks before an action: title, what it does, Cancel and the confirm button (needs a ModalsProvider above). */
export function confirmAction(intl: IntlShape, { title, children, confirm, onConfirm, destructive = true }: ConfirmActionOptions) {
  modals.openConfirmModal({
    title: intl.formatMessage({ id: title }),
    closeButtonProps: { 'aria-label': intl.formatMessage({ id: 'common.close' }) },
    children,
    labels: { confirm: intl.formatMessage({ id: confirm }), cancel: intl.formatMessage({ id: 'common.cancel' }) },
    // Red 9: red 6 under white text misses AA contrast.
    confirmProps: destructive ? { color: 'red.9' } : undefined,
    onConfirm,
  });
}

/** What a confirmation says: the question, the record's name in a code block, then what else the record is. */
export function ConfirmText({
  question,
  name,
  testId,
  children,
}: {
  question: MessageId;
  name: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Stack gap="sm" data-testid={testId}>
      <MessageText fz="sm" message={question} />
      <Code block style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
        {name}
      </Code>
      {children}
    </Stack>
  );
}

/** Asks before deleting a record: `admin.<area>.delete.title`, the `.question` over its name, what else goes, `.confirm`. */
export function confirmDelete(
  intl: IntlShape,
  {
    area,
    name,
    testId,
    onConfirm,
    children,
  }: { area: 'files' | 'versions'; name: string; testId: string; onConfirm: () => void; children: ReactNode },
) {
  confirmAction(intl, {
    title: `admin.${area}.delete.title`,
    children: (
      <ConfirmText question={`admin.${area}.delete.question`} name={name} testId={testId}>
        {children}
      </ConfirmText>
    ),
    confirm: `admin.${area}.delete.confirm`,
    onConfirm,
  });
}
