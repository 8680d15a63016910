import { act, render, screen, waitFor } from '@testing-library/react';
import { FormattedMessage } from 'react-intl';
import { afterEach, describe, expect, it } from 'vitest';
import { partOf } from './catalog-parts';
import { LOCALE_KEY, LocaleProvider, loadSignedInMessages, useLocale } from './locale';

function Probe() {
  const { setLocale } = useLocale();
  return (
    <>
      <h1>
        <FormattedMessage id="notFound.title" />
      </h1>
      <button onClick={() => setLocale('de')}>de</button>
    </>
  );
}

describe('LocaleProvider', () => {
  afterEach(() => localStorage.clear());

  it('loads the German catalog when German is chosen, and remembers the choice', async () => {
    render(
      <LocaleProvider>
        <Probe />
      </LocaleProvider>,
    );
    expect(screen.getByRole('heading').textContent).toBe('Page Not Found');
    await act(async () => screen.getByRole('button').click());
    expect(await screen.findByText('Seite nicht gefunden')).toBeTruthy();
    // The page's language follows the catalog in an effect, after the new texts are on screen.
    await waitFor(() => expect(document.documentElement.lang).toBe('de'));
    expect(localStorage.getItem(LOCALE_KEY)).toBe('de');
  });

  it('starts in the stored language', async () => {
    localStorage.setItem(LOCALE_KEY, 'de');
    render(
      <LocaleProvider>
        <Probe />
      </LocaleProvider>,
    );
    expect(await screen.findByText('Seite nicht gefunden')).toBeTruthy();
  });

  it('shows the signed-in screens’ messages (a part of its own) in the language on screen and the next one', async () => {
    function Account() {
      const { setLocale } = useLocale();
      return (
        <>
          <h1>
            <FormattedMessage id="account.title" />
          </h1>
          <button onClick={() => setLocale('de')}>de</button>
        </>
      );
    }
    await loadSignedInMessages();
    render(
      <LocaleProvider>
        <Account />
      </LocaleProvider>,
    );
    expect(screen.getByRole('heading').textContent).toBe('Profile and security');
    await act(async () => screen.getByRole('button').click());
    expect(await screen.findByText('Profil und Sicherheit')).toBeTruthy();
  });

  it('splits each catalog into the first page’s part, the landing page’s, the sign-in screens’ and the signed-in screens’ part, which together are the catalog', async () => {
    const [first, landing, signIn, rest, whole] = await Promise.all([
      import('./de.json?first&catalog').then((module) => module.default),
      import('./de.json?landing&catalog').then((module) => module.default),
      import('./de.json?signIn&catalog').then((module) => module.default),
      import('./de.json?rest&catalog').then((module) => module.default),
      import('./de.json').then((module) => module.default as Record<string, string>),
    ]);
    expect(Object.keys(first).every((id) => partOf(id) === 'first')).toBe(true);
    expect(Object.keys(landing).every((id) => partOf(id) === 'landing')).toBe(true);
    expect(Object.keys(signIn).every((id) => partOf(id) === 'signIn')).toBe(true);
    expect(Object.keys(rest).every((id) => partOf(id) === 'rest')).toBe(true);
    expect(first['common.language']).toBe(whole['common.language']);
    expect(signIn['login.title']).toBe(whole['login.title']);
    expect(rest['account.title']).toBe('Profil und Sicherheit');
    expect(landing['landing.nav.login']).toBe(whole['landing.nav.login']);
    expect({ ...first, ...landing, ...signIn, ...rest }).toEqual(whole);
  });
});
