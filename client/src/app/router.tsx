import { Center, Loader } from '@mantine/core';
import { ComponentType, lazy, ReactNode, Suspense } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { NotFoundPage } from '../components/NotFoundPage';
import { LandingPage } from '../features/public/LandingPage';
import { loadSignedInMessages } from '../i18n/locale';
import { paths } from '../lib/paths';
import { RouteGuard } from './guard';

// Public pages ship in the first bundle; sign-in pages, the portal and the admin area load on demand.
// Declarative routes (not createBrowserRouter): the data router's loaders and actions would cost 17 kB gzip on the first page.
/**
 * A page that talks to the API, loaded together with the query cache; a signed-in page also with the messages of
 * the signed-in screens (the first page ships without them). All in parallel: no extra round trip.
 */
const withQueries = (load: () => Promise<{ default: ComponentType }>, signedIn = false) =>
  lazy(async () => {
    const [{ QueryScope }, { default: Page }] = await Promise.all([
      import('./query-scope'),
      load(),
      signedIn ? loadSignedInMessages() : undefined,
    ]);
    return {
      default: () => (
        <QueryScope>
          <Page />
        </QueryScope>
      ),
    };
  });

// The sign-in page calls the API without the query library (a first page: it stays light).
const LoginPage = lazy(() => import('../features/auth/LoginPage'));
const RegisterPage = withQueries(() => import('../features/auth/RegisterPage'));
const VerifyEmailPage = withQueries(() => import('../features/auth/VerifyEmailPage'));
const AdminLoginPage = withQueries(() => import('../features/auth/AdminLoginPage'));
const ForgotPasswordPage = withQueries(() => import('../features/auth/ForgotPasswordPage'));
const ResetPasswordPage = withQueries(() => import('../features/auth/ResetPasswordPage'));
const UnauthorizedPage = lazy(() => import('../features/public/UnauthorizedPage'));
const DashboardPage = withQueries(() => import('../features/portal/DashboardPage'), true);
const AdminArea = withQueries(() => import('../features/admin/AdminArea'), true);
const AdminProfilePage = withQueries(() => import('../features/account/AdminProfilePage'), true);
const PortalProfilePage = withQueries(() => import('../features/account/PortalProfilePage'), true);
const ConfirmEmailPage = withQueries(() => import('../features/auth/ConfirmEmailPage'));

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
