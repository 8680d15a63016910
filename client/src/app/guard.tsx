import { Center } from '@mantine/core';
import { ReactNode, useEffect, useState } from 'react';
import { Navigate, useLocation } from 'react-router';
import { WaitingPanel } from '../components/WaitingPanel';
import { useAuth } from '../lib/auth/auth-context';
import { paths } from '../lib/paths';

/** Extra time the spinner stays after the authentication state has loaded at start-up (spec section 9). */
export const GUARD_GRACE_MS = 500;

export interface GuardProps {
  requireAuth?: boolean;
  requireAdmin?: boolean;
  children: ReactNode;
}

/** Where a visitor who may not see the page goes, or null to show it. */
export function guardRedirect(
  auth: { status: 'signedIn' | 'signedOut'; isAdmin: boolean },
  flags: { requireAuth?: boolean; requireAdmin?: boolean },
): string | null {
  const needsSignIn = flags.requireAuth || flags.requireAdmin;
  if (needsSignIn && auth.status !== 'signedIn') return flags.requireAdmin ? paths.adminLogin : paths.login;
  if (flags.requireAdmin && !auth.isAdmin) return paths.unauthorized;
  return null;
}

export function RouteGuard({ requireAuth, requireAdmin, children }: GuardProps) {
  const auth = useAuth();
  const location = useLocation();
  // The grace applies only when the guard starts while the session is still being restored.
  const [graceOver, setGraceOver] = useState(auth.status !== 'loading');
  useEffect(() => {
    if (graceOver || auth.status === 'loading') return;
    const timer = setTimeout(() => setGraceOver(true), GUARD_GRACE_MS);
    return () => clearTimeout(timer);
  }, [auth.status, graceOver]);

  if (auth.status === 'loading' || !graceOver) {
    return (
      <Center mih="100vh">
        <WaitingPanel message="guard.checking" />
      </Center>
    );
  }
  const target = guardRedirect({ status: auth.status, isAdmin: auth.isAdmin }, { requireAuth, requireAdmin });
  if (target) return <Navigate to={target} replace state={{ from: location }} />;
  return <>{children}</>;
}
