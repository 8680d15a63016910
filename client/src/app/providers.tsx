import { MantineProvider } from '@mantine/core';
import { ReactNode } from 'react';
import { LocaleProvider } from '../i18n/locale';
import { AuthProvider } from '../lib/auth/auth-context';
import { cssVariablesResolver, theme } from './theme';

/** What every page needs; the query cache comes with the pages that use it (see router.tsx). */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <LocaleProvider>
      <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={cssVariablesResolver}>
        <AuthProvider>{children}</AuthProvider>
      </MantineProvider>
    </LocaleProvider>
  );
}
