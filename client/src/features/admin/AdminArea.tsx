import { Center, Loader } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { paths } from '../../lib/paths';
import { AdminShell } from '../../components/layouts/AdminShell';
import { NotFoundPage } from '../../components/NotFoundPage';

// The dashboard's charts (recharts) load with the dashboard only.
const AdminDashboardPage = lazy(() => import('./dashboard/AdminDashboardPage'));
const UsersPage = lazy(() => import('./users/UsersPage'));
const LicensesPage = lazy(() => import('./licenses/LicensesPage'));
const VersionsPage = lazy(() => import('./versions/VersionsPage'));
const FilesPage = lazy(() => import('./files/FilesPage'));
const LogsPage = lazy(() => import('./logs/LogsPage'));
const SettingsPage = lazy(() => import('./settings/SettingsPage'));

/** Everything under /secret-admin/*, inside the admin shell; loaded as its own bundle. */
export default function AdminArea() {
  return (
    <AdminShell>
      <ModalsProvider>
        <Suspense
          fallback={
            <Center p="xl">
              <Loader />
            </Center>
          }
        >
          <Routes>
            <Route index element={<Navigate to={paths.admin.dashboard} replace />} />
            <Route path="dashboard" element={<AdminDashboardPage />} />
            <Route path="users" element={<UsersPage />} />
            <Route path="versions" element={<VersionsPage />} />
            <Route path="licenses" element={<LicensesPage />} />
            <Route path="files" element={<FilesPage />} />
            <Route path="logs" element={<LogsPage />} />
            <Route path="settings" element={<SettingsPage />} />
            <Route path="*" element={<NotFoundPage />} />
          </Routes>
        </Suspense>
      </ModalsProvider>
    </AdminShell>
  );
}
