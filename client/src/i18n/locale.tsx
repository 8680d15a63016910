import { createContext, ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { IntlProvider } from 'react-intl';
import en from './en.json';

export const LOCALES = ['en', 'de'] as const;
export type Locale = (typeof LOCALES)[number];
export const LOCALE_KEY = 'locale';

type Messages = typeof en;

// English ships with the first page; every other catalog loads when it is chosen.
const LOADED: Partial<Record<Locale, Messages>> = { en };
const LOADERS: Record<Exclude<Locale, 'en'>, () => Promise<{ default: Messages }>> = { de: () => import('./de.json') };

/** The messages of a locale, fetched once. */
export async function loadCatalog(locale: Locale): Promise<Messages> {
  const messages = LOADED[locale] ?? (await LOADERS[locale as Exclude<Locale, 'en'>]()).default;
  LOADED[locale] = messages;
  return messages;
}

function storedLocale(): Locale {
  const value = localStorage.getItem(LOCALE_KEY);
  return LOCALES.includes(value as Locale) ? (value as Locale) : 'en';
}

interface LocaleContextValue {
  locale: Locale;
  setLocale: (locale: Locale) => void;
}

const LocaleContext = createContext<LocaleContextValue | null>(null);

/** The chosen language, persisted in localStorage and applied to every screen (and to <html lang>). */
export function LocaleProvider({ children }: { children: ReactNode }) {
  const [locale, setLocaleState] = useState<Locale>(storedLocale);
  // The catalog on screen: the previous one stays until the chosen one has loaded.
  const [shown, setShown] = useState(() => (LOADED[locale] ? { locale, messages: LOADED[locale] } : null));
  const setLocale = useCallback((next: Locale) => {
    localStorage.setItem(LOCALE_KEY, next);
    setLocaleState(next);
  }, []);
  useEffect(() => {
    if (shown?.locale === locale) return;
    let current = true;
    loadCatalog(locale).then(
      (messages) => current && setShown({ locale, messages }),
      // A catalog that cannot be fetched (offline) leaves the page readable in English.
      () => current && setShown((previous) => previous ?? { locale: 'en', messages: en }),
    );
    return () => {
      current = false;
    };
  }, [locale, shown]);
  useEffect(() => {
    if (shown) document.documentElement.lang = shown.locale;
  }, [shown]);
  const value = useMemo(() => ({ locale, setLocale }), [locale, setLocale]);
  // Only a first visit in another language waits (for one small file) before the first paint.
  if (!shown) return null;
  return (
    <LocaleContext.Provider value={value}>
      <IntlProvider locale={shown.locale} messages={shown.messages} defaultLocale="en">
        {children}
      </IntlProvider>
    </LocaleContext.Provider>
  );
}

export function useLocale(): LocaleContextValue {
  const context = useContext(LocaleContext);
  if (!context) throw new Error('useLocale needs a LocaleProvider');
  return context;
}
