import { act, render, screen } from '@testing-library/react';
import { FormattedMessage } from 'react-intl';
import { afterEach, describe, expect, it } from 'vitest';
import { LOCALE_KEY, LocaleProvider, useLocale } from './locale';

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
});
