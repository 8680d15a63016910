import { useIntl } from 'react-intl';
import { formatMoney } from '../i18n/format';

/** An amount in the one money format (i18n/format.ts); `compact` for a headline figure. */
export function Money({ amount, currency, compact }: { amount: number; currency: string; compact?: boolean }) {
  return <>{formatMoney(useIntl(), amount, currency, { compact })}</>;
}
