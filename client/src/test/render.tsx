import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { ReactNode } from 'react';
import { AuthProvider } from '../lib/auth/auth-context';
import { theme } from '../app/theme';
import { LocaleProvider } from '../i18n/locale';

/** Renders with the app's real providers (query client, locale, Mantine, auth). */
export function renderWithProviders(ui: ReactNode) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <LocaleProvider>
        <MantineProvider theme={theme}>
          <AuthProvider>{ui}</AuthProvider>
        </MantineProvider>
      </LocaleProvider>
    </QueryClientProvider>,
  );
}

/** A fetch answer as the server would send it. */
export function jsonResponse(status: number, body: unknown, statusText = ''): Response {
  return new Response(JSON.stringify(body), { status, statusText, headers: { 'Content-Type': 'application/json' } });
}
