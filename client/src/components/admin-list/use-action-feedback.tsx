import { useIntl } from 'react-intl';
import type { MessageId } from '../../i18n/message-id';
import { ErrorAlert } from '../ErrorAlert';
import { SuccessAlert } from '../SuccessAlert';
import { useFlash } from '../use-flash';

interface FeedbackTimes {
  /** How long a success message shows (admin spec sections 8 and 9: 3 s for users, 5 s for the other tables). */
  successMs: number;
  /** How long an error shows; without it an error stays until closed or replaced. */
  errorMs?: number;
}

/** What stands in when a failure gives no reason. */
export interface NoReasonTexts {
  /** The reason shown in the message ('Failed to revoke license: Revoke failed'). */
  fallback?: MessageId;
  /** The whole message instead ('Sync failed'). */
  withoutReason?: MessageId;
}

/** 'Sync failed: {reason}', or the bare 'Sync failed' when the failure gave no reason (admin spec section 8). */
export function failureText(withReason: (reason: string) => string, withoutReason: string | undefined, reason: string): string {
  return !reason && withoutReason !== undefined ? withoutReason : withReason(reason);
}

/** What the last action on a screen achieved or why it failed: one message at a time. */
export function useActionFeedback({ successMs, errorMs }: FeedbackTimes) {
  const intl = useIntl();
  const [success, showSuccess] = useFlash(successMs);
  const [error, showError] = useFlash(errorMs);
  const fail = (message: string) => {
    showSuccess(null);
    showError(message);
  };
  return {
    success,
    error,
    /** Shows a success message, for `ms` when it differs from the screen's usual time. */
    succeed: (message: string, ms?: number) => {
      showError(null);
      showSuccess(message, ms);
    },
    fail,
    /** An onError: message `id` with the error's reason as {message}; see NoReasonTexts for an error without one. */
    failed:
      (id: MessageId, { fallback, withoutReason }: NoReasonTexts = {}) =>
      (failure: Error): void => {
        const reason = failure.message || (fallback ? intl.formatMessage({ id: fallback }) : '');
        const bare = withoutReason && intl.formatMessage({ id: withoutReason });
        fail(failureText((message) => intl.formatMessage({ id }, { message }), bare, reason));
      },
    clear: () => {
      showSuccess(null);
      showError(null);
    },
  };
}

export type ActionFeedback = ReturnType<typeof useActionFeedback>;

/** The success banner (role status) and the error banner (role alert) of a screen's last action. */
export function ActionFeedbackAlerts({ feedback }: { feedback: ActionFeedback }) {
  return (
    <>
      {feedback.success && <SuccessAlert onClose={feedback.clear}>{feedback.success}</SuccessAlert>}
      {feedback.error && <ErrorAlert onClose={feedback.clear}>{feedback.error}</ErrorAlert>}
    </>
  );
}
