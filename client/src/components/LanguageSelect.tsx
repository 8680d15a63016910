import { IconLanguage } from '@tabler/icons-react';
import { useIntl } from 'react-intl';
import { Locale, LOCALES, useLocale } from '../i18n/locale';
import classes from './language-select.module.css';

const NAMES: Record<Locale, string> = { en: 'English', de: 'Deutsch' };

/**
 * A native select: keyboard- and screen-reader-friendly. Drawn as Mantine's NativeSelect draws it (same sizes, border,
 * sections and chevron; language-select.module.css), but without Mantine's Input, whose statics (wrapper, label,
 * description, error, clear button) would otherwise come with the landing page (about 3 kB gzip).
 */
export function LanguageSelect({ size = 'xs' }: { size?: 'xs' | 'sm' }) {
  const { locale, setLocale } = useLocale();
  const intl = useIntl();
  return (
    <div className={classes.root} data-size={size} style={{ width: size === 'xs' ? 116 : 140 }}>
      <span className={`${classes.section} ${classes.left}`}>
        <IconLanguage size={14} aria-hidden />
      </span>
      <select
        className={classes.select}
        aria-label={intl.formatMessage({ id: 'common.language' })}
        value={locale}
        onChange={(event) => setLocale(event.currentTarget.value as Locale)}
        data-testid="language-select"
      >
        {LOCALES.map((value) => (
          <option key={value} value={value}>
            {NAMES[value]}
          </option>
        ))}
      </select>
      <span className={`${classes.section} ${classes.right}`}>
        {/* NativeSelect's up-and-down chevron */}
        <svg className={classes.chevron} viewBox="0 0 15 15" fill="none" aria-hidden>
          <path
            d="M4.93179 5.43179C4.75605 5.60753 4.75605 5.89245 4.93179 6.06819C5.10753 6.24392 5.39245 6.24392 5.56819 6.06819L7.49999 4.13638L9.43179 6.06819C9.60753 6.24392 9.89245 6.24392 10.0682 6.06819C10.2439 5.89245 10.2439 5.60753 10.0682 5.43179L7.81819 3.18179C7.73379 3.0974 7.61933 3.04999 7.49999 3.04999C7.38064 3.04999 7.26618 3.0974 7.18179 3.18179L4.93179 5.43179ZM10.0682 9.56819C10.2439 9.39245 10.2439 9.10753 10.0682 8.93179C9.89245 8.75606 9.60753 8.75606 9.43179 8.93179L7.49999 10.8636L5.56819 8.93179C5.39245 8.75606 5.10753 8.75606 4.93179 8.93179C4.75605 9.10753 4.75605 9.39245 4.93179 9.56819L7.18179 11.8182C7.35753 11.9939 7.64245 11.9939 7.81819 11.8182L10.0682 9.56819Z"
            fill="currentColor"
            fillRule="evenodd"
            clipRule="evenodd"
          />
        </svg>
      </span>
    </div>
  );
}
