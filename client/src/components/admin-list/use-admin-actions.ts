import { QueryKey, useQueryClient } from '@tanstack/react-query';
import { useIntl } from 'react-intl';
import type { MessageId } from '../../i18n/message-id';
import { MESSAGE_MS } from '../../lib/admin-tables';
import { NoReasonTexts, useActionFeedback } from './use-action-feedback';

/** What an action says: the success banner and the failure banner. */
export interface ActionTexts<TData, TVariables> extends NoReasonTexts {
  /** The success banner, or how the answer and what was sent make it; without it the caller announces success itself. */
  success?: MessageId | ((answer: TData, variables: TVariables) => string);
  /** How long this success banner shows, when it differs from the screen's usual time. */
  successMs?: number;
  /** The failure banner: an id with the error's reason as {message}. */
  failure: MessageId;
}

interface AdminActionsOptions {
  /** How long a success banner shows (MESSAGE_MS unless given); the error banner stays until closed unless `errorMs` is given. */
  successMs?: number;
  errorMs?: number;
  /** Reloads what an action may have changed; its promise, if any, keeps the action pending until the reload is done. */
  refresh: () => unknown;
}

/**
 * How an admin screen wires its actions: one success or error banner at a time, and the screen reloaded after every
 * action, done or failed (a failure may have changed something too, such as a sync that got halfway).
 */
export function useAdminActions({ successMs = MESSAGE_MS, errorMs, refresh }: AdminActionsOptions) {
  const intl = useIntl();
  const feedback = useActionFeedback({ successMs, errorMs });
  return {
    feedback,
    /** Shows a success banner (for `ms` when it differs from the screen's usual time) and reloads the screen. */
    succeeded: (message: string, ms?: number) => {
      feedback.succeed(message, ms);
      void refresh();
    },
    /** The options for a generated mutation hook, e.g. `useDeleteUser(actions.mutation({ success, failure }))`. */
    mutation: <TData, TVariables>({ success, successMs, failure, ...noReason }: ActionTexts<TData, TVariables>) => ({
      mutation: {
        onSuccess: (answer: TData, variables: TVariables) => {
          if (success)
            feedback.succeed(typeof success === 'string' ? intl.formatMessage({ id: success }) : success(answer, variables), successMs);
        },
        onError: feedback.failed(failure, noReason),
        onSettled: () => refresh(),
      },
    }),
  };
}

export type AdminActions = ReturnType<typeof useAdminActions>;

/** Reloads a list and the screen's other queries (its figures, its choices …) without waiting for them: Refresh, and what an action reloads. */
export function useReload(list: { refresh: () => unknown }, ...queryKeys: QueryKey[]) {
  const queryClient = useQueryClient();
  return () => {
    void list.refresh();
    for (const queryKey of queryKeys) void queryClient.invalidateQueries({ queryKey });
  };
}
