import type { IntlShape } from 'react-intl';
import type { MessageId } from '../i18n/message-id';
import { localizeServerMessage } from './server-messages';

// The server's reasons why a license cannot be requested (GET /api/licenses/options), in the reader's language. Apart
// from the sign-in screens' messages: these load with the signed-in screens' catalog part.
const REFUSALS: Record<string, MessageId> = {
  'No release is available yet: a license can be requested once the first version is published.': 'licenses.refusal.noRelease',
  'Test licenses are currently not available.': 'licenses.refusal.trialsOff',
  'Purchasing licenses is currently not available.': 'licenses.refusal.purchasesOff',
};

export function localizeLicenseRefusal(intl: IntlShape, message: string): string {
  const trialLimit = message.match(/^You have reached the limit of (\d+) test licenses? per account\.$/);
  if (trialLimit) return intl.formatMessage({ id: 'licenses.refusal.trialLimit' }, { max: Number(trialLimit[1]) });
  const id = REFUSALS[message];
  return id ? intl.formatMessage({ id }) : localizeServerMessage(intl, message);
}
