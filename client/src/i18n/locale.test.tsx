import { act, render, screen } from '@testing-library/react';
import { FormattedMessage } from 'react-intl';
import { afterEach, describe, expect, it, vi } from 'vitest';
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
    expect(document.documentElement.lang).toBe('de');
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

  it('has the signed-in screens’ messages only once they are loaded, in the language on screen and the next one', async () => {
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
    // The first render names a message that is not there yet, which react-intl reports.
    const reported = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <LocaleProvider>
        <Account />
      </LocaleProvider>,
    );
    // Not in the first part: react-intl falls back to the id.
    expect(screen.getByRole('heading').textContent).toBe('account.title');
    expect(reported).toHaveBeenCalled();
    await act(() => loadSignedInMessages());
    expect(screen.getByRole('heading').textContent).toBe('Profile and security');
    await act(async () => screen.getByRole('button').click());
    expect(await screen.findByText('Profil und Sicherheit')).toBeTruthy();
  });
});
