import { Center, Loader } from '@mantine/core';
import { ComponentType, lazy, ReactNode, Suspense } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import type { CatalogPart } from '../i18n/catalog-parts';
import { loadMessages } from '../i18n/locale';
import { paths } from '../lib/paths';
import { RouteGuard } from './guard';

// Every page loads on demand; the landing page's chunk starts loading with the first bundle when it is the page asked
// for (no round trip after the first render). vite.config.ts keeps it, and the sign-in page, one chunk each.
// Declarative routes (not createBrowserRouter): the data router's loaders and actions would cost 17 kB gzip on the first page.
/**
 * A page loaded with the parts of the catalog it needs beyond the first (the first page ships without them) and, for a
 * page that talks to the API through query hooks, the query cache. All in parallel: no extra round trip.
 */
const page = (load: () => Promise<{ default: ComponentType }>, messages: CatalogPart[], queries = true) =>
  lazy(async () => {
    const [scope, { default: Page }] = await Promise.all([queries ? import('./query-scope') : undefined, load(), loadMessages(messages)]);
    if (!scope) return { default: Page };
    const { QueryScope } = scope;
    return {
      default: () => (
        <QueryScope>
          <Page />
        </QueryScope>
      ),
    };
  });
// The landing page's messages (a catalog part of their own) load beside its code.
const landing = () => Promise.all([import('../features/public/LandingPage'), loadMessages(['landing'])]).then(([module]) => module);
if (window.location.pathname === paths.home) void landing();
const LandingPage = lazy(() => landing().then((module) => ({ default: module.LandingPage })));
const signIn: CatalogPart[] = ['signIn'];
const signedIn: CatalogPart[] = ['signIn', 'rest'];

// The sign-in page calls the API without the query library (a first page: it stays light).
const LoginPage = page(() => import('../features/auth/LoginPage'), signIn, false);
const RegisterPage = page(() => import('../features/auth/RegisterPage'), signIn);
const VerifyEmailPage = page(() => import('../features/auth/VerifyEmailPage'), signIn);
const AdminLoginPage = page(() => import('../features/auth/AdminLoginPage'), signIn);
const ForgotPasswordPage = page(() => import('../features/auth/ForgotPasswordPage'), signIn);
const ResetPasswordPage = page(() => import('../features/auth/ResetPasswordPage'), signIn);
const NotFoundPage = lazy(() => import('../components/NotFoundPage').then((module) => ({ default: module.NotFoundPage })));
const UnauthorizedPage = lazy(() => import('../features/public/UnauthorizedPage'));
const DashboardPage = page(() => import('../features/portal/DashboardPage'), signedIn);
const AdminArea = page(() => import('../features/admin/AdminArea'), signedIn);
const AdminProfilePage = page(() => import('../features/account/AdminProfilePage'), signedIn);
const PortalProfilePage = page(() => import('../features/account/PortalProfilePage'), signedIn);
const ConfirmEmailPage = page(() => import('../features/auth/ConfirmEmailPage'), signIn);

/** A signed-in page: the guard decides, then the page's bundle loads behind a spinner. */
function Guarded({ admin = false, children }: { admin?: boolean; children: ReactNode }) {
  return (
    <RouteGuard requireAuth requireAdmin={admin}>
      <Suspense
        fallback={
          <Center mih="100vh">
            <Loader />
          </Center>
        }
      >
        {children}
      </Suspense>
    </RouteGuard>
  );
}

export function AppRouter() {
  return (
    <BrowserRouter>
      {/* Navigations are transitions: the current page stays until the next one has loaded. */}
      <Suspense fallback={null}>
        <Routes>
          <Route path={paths.home} element={<LandingPage />} />
          <Route path={paths.login} element={<LoginPage />} />
          <Route path={paths.register} element={<RegisterPage />} />
          <Route path={paths.verifyEmail} element={<VerifyEmailPage />} />
          <Route path={paths.forgotPassword} element={<ForgotPasswordPage />} />
          <Route path={paths.resetPassword} element={<ResetPasswordPage />} />
          <Route path={paths.confirmEmail} element={<ConfirmEmailPage />} />
          <Route path={paths.adminLogin} element={<AdminLoginPage />} />
          <Route path={paths.unauthorized} element={<UnauthorizedPage />} />
          <Route
            path={paths.dashboard}
            element={
              <Guarded>
                <DashboardPage />
              </Guarded>
            }
          />
          <Route
            path={paths.profile}
            element={
              <Guarded>
                <PortalProfilePage />
              </Guarded>
            }
          />
          <Route
            path={paths.admin.profile}
            element={
              <Guarded admin>
                <AdminProfilePage />
              </Guarded>
            }
          />
          <Route
            path={`${paths.adminLogin}/*`}
            element={
              <Guarded admin>
                <AdminArea />
              </Guarded>
            }
          />
          <Route path="/admin" element={<Navigate to={paths.adminLogin} replace />} />
          <Route path="/admin/*" element={<Navigate to={paths.adminLogin} replace />} />
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </Suspense>
    </BrowserRouter>
  );
}
