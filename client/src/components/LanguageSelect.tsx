import { NativeSelect } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { useIntl } from 'react-intl';
import { Locale, LOCALES, useLocale } from '../i18n/locale';

const NAMES: Record<Locale, string> = { en: 'English', de: 'Deutsch' };

/** A native select: keyboard- and screen-reader-friendly, and light enough for the landing page. */
export function LanguageSelect({ size = 'xs' }: { size?: 'xs' | 'sm' }) {
  const { locale, setLocale } = useLocale();
  const intl = useIntl();
  return (
    <NativeSelect
      size={size}
      w={size === 'xs' ? 116 : 140}
      aria-label={intl.formatMessage({ id: 'common.language' })}
      leftSection={<IconLanguage size={14} aria-hidden />}
      data={LOCALES.map((value) => ({ value, label: NAMES[value] }))}
      value={locale}
      onChange={(event) => setLocale(event.currentTarget.value as Locale)}
      data-testid="language-select"
    />
  );
}
