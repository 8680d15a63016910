import { createContext, ReactNode, useCallback, useContext, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { IntlProvider } from 'react-intl';
import type { CatalogPart } from './catalog-parts';
import type en from './en.json';
import enFirst from './en.json?first&catalog';

export const LOCALES = ['en', 'de'] as const;
export type Locale = (typeof LOCALES)[number];
export const LOCALE_KEY = 'locale';

type Messages = Partial<typeof en>;

// The first part of the English catalog ships with the first page; every other part loads when it is needed: the
// landing part with the landing page, the sign-in part with the sign-in screens, the rest with the signed-in screens (loadMessages), another language when chosen.
const LOADED: Record<Locale, Partial<Record<CatalogPart, Messages>>> = { en: { first: enFirst }, de: {} };
const LOADERS: Record<Locale, Record<CatalogPart, () => Promise<{ default: Messages }>>> = {
  en: {
    first: async () => ({ default: enFirst }),
    landing: () => import('./en.json?landing&catalog'),
    signIn: () => import('./en.json?signIn&catalog'),
    rest: () => import('./en.json?rest&catalog'),
  },
  de: {
    first: () => import('./de.json?first&catalog'),
    landing: () => import('./de.json?landing&catalog'),
    signIn: () => import('./de.json?signIn&catalog'),
    rest: () => import('./de.json?rest&catalog'),
  },
};
/** The parts the screens shown so far asked for: every language loads them all. */
const wanted = new Set<CatalogPart>(['first']);
const listeners = new Set<() => void>();
/** Counts the parts loaded, so the provider re-reads LOADED when one arrives. */
let version = 0;

async function loadPart(locale: Locale, part: CatalogPart): Promise<Messages> {
  const loaded = LOADED[locale][part];
  if (loaded) return loaded;
  const messages = (await LOADERS[locale][part]()).default;
  LOADED[locale][part] = messages;
  version += 1;
  listeners.forEach((listener) => listener());
  return messages;
}

/** The messages of a locale, fetched once: the parts the screens shown so far need. */
export async function loadCatalog(locale: Locale): Promise<Messages> {
  const parts = await Promise.all([...wanted].map((part) => loadPart(locale, part)));
  return Object.assign({}, ...parts);
}

/** Loads parts of the chosen language's catalog; the router waits for them with a screen's code. */
export async function loadMessages(parts: CatalogPart[]): Promise<void> {
  parts.forEach((part) => wanted.add(part));
  await Promise.all(parts.map((part) => loadPart(storedLocale(), part)));
}

/** The signed-in screens' messages (with the sign-in part: they show two-factor steps and server messages too). */
export const loadSignedInMessages = () => loadMessages(['signIn', 'rest']);

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const currentVersion = () => version;

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
  const [shown, setShown] = useState<Locale | null>(() => (LOADED[locale].first ? locale : null));
  // Re-reads the loaded parts when the signed-in screens' part arrives.
  const loadedVersion = useSyncExternalStore(subscribe, currentVersion);
  const setLocale = useCallback((next: Locale) => {
    localStorage.setItem(LOCALE_KEY, next);
    setLocaleState(next);
  }, []);
  useEffect(() => {
    if (shown === locale && [...wanted].every((part) => LOADED[locale][part])) return;
    // The chosen language loads whole (when the signed-in screens need it) before it replaces the one on screen.
    let current = true;
    loadCatalog(locale).then(
      () => current && setShown(locale),
      // A catalog that cannot be fetched (offline) leaves the page readable in English.
      () => current && setShown((previous) => previous ?? 'en'),
    );
    return () => {
      current = false;
    };
  }, [locale, shown]);
  useEffect(() => {
    if (shown) document.documentElement.lang = shown;
  }, [shown]);
  const messages = useMemo(
    () => (shown ? Object.assign({}, ...Object.values(LOADED[shown])) : null),
    // loadedVersion: a part that arrived later joins the messages.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [shown, loadedVersion],
  );
  const value = useMemo(() => ({ locale, setLocale }), [locale, setLocale]);
  // Only a first visit in another language waits (for one small file) before the first paint.
  if (!shown || !messages) return null;
  return (
    <LocaleContext.Provider value={value}>
      <IntlProvider locale={shown} messages={messages as Record<string, string>} defaultLocale="en">
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
