import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ReactNode, useEffect } from 'react';
import { ApiError } from '../api/http-client';
import { useAuth } from '../lib/auth/auth-context';

// One cache for every page that talks to the API; loaded with the first such page, not with the landing page.
const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      refetchOnWindowFocus: false,
      // Client errors (4xx) are answers, not glitches: retry only network and server failures, once.
      retry: (failures, error) => failures < 1 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
    },
  },
});

/** Server state for the page inside; a session that ends (logout, expiry) takes its cached data with it. */
export function QueryScope({ children }: { children: ReactNode }) {
  const { status } = useAuth();
  useEffect(() => {
    if (status === 'signedOut') queryClient.clear();
  }, [status]);
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
