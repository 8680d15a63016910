import { createBrowserRouter, Navigate, Outlet, RouterProvider } from 'react-router';
import { LandingPage } from '../features/public/LandingPage';
import { NotFoundPage } from '../components/NotFoundPage';
import { RouteGuard } from './guard';
import { paths } from '../lib/paths';

// Public pages ship in the first bundle; sign-in pages, the portal and the admin area load on demand.
const lazyPage = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({ Component: (await load()).default });

const router = createBrowserRouter([
  { path: paths.home, element: <LandingPage /> },
  { path: paths.login, lazy: lazyPage(() => import('../features/auth/LoginPage')) },
  { path: paths.register, lazy: lazyPage(() => import('../features/auth/RegisterPage')) },
  { path: paths.verifyEmail, lazy: lazyPage(() => import('../features/auth/VerifyEmailPage')) },
  { path: paths.adminLogin, lazy: lazyPage(() => import('../features/auth/AdminLoginPage')) },
  { path: paths.unauthorized, lazy: lazyPage(() => import('../features/public/UnauthorizedPage')) },
  {
    path: paths.dashboard,
    element: (
      <RouteGuard requireAuth>
        <Outlet />
      </RouteGuard>
    ),
    children: [{ index: true, lazy: lazyPage(() => import('../features/portal/DashboardPage')) }],
  },
  {
    path: `${paths.adminLogin}/*`,
    element: (
      <RouteGuard requireAuth requireAdmin>
        <Outlet />
      </RouteGuard>
    ),
    children: [{ path: '*', lazy: lazyPage(() => import('../features/admin/AdminArea')) }],
  },
  { path: '/admin', element: <Navigate to={paths.adminLogin} replace /> },
  { path: '/admin/*', element: <Navigate to={paths.adminLogin} replace /> },
  { path: '*', element: <NotFoundPage /> },
]);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
